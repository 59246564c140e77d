/** A throwaway self-signed certificate for a `.test` host name, made with the openssl CLI when it is installed. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A key and certificate pair; `certFile` can be trusted by a child process through NODE_EXTRA_CA_CERTS. */
export interface TestCertificate {
  key: string;
  cert: string;
  certFile: string;
}

/** Writes the pair into `dir`; `{ skip: reason }` when openssl is unavailable. */
export function createTestCertificate(dir: string, hostname: string): TestCertificate | { skip: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  const made = spawnSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', `/CN=${hostname}`, '-addext', `subjectAltName=DNS:${hostname}`, '-keyout', keyFile, '-out', certFile,
  ], { encoding: 'utf8' });
  if (made.error || made.status !== 0) return { skip: `openssl could not make a test certificate (${made.error?.message ?? made.stderr.trim()})` };
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}
