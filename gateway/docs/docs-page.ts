/**
 * The HTML reference served at `/docs`: Redoc's standalone bundle rendering the served OpenAPI document in
 * the browser. One self-contained page: the bundle and the document are inline, so it makes no request at
 * all, works offline, and its Content-Security-Policy can allow exactly its two scripts by hash.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The page as the route serves it: bytes, strong ETag, and the policy that admits only its own scripts. */
export interface DocsPage {
  body: Buffer;
  etag: string;
  contentSecurityPolicy: string;
}

/**
 * Redoc's options. System font stacks, because Redoc's default fonts would be fetched from a font host;
 * the download button would offer a blob of the inline copy, so it points at `/openapi.json` instead.
 */
const REDOC_OPTIONS = {
  downloadDefinitionUrl: '/openapi.json',
  expandResponses: '200',
  theme: {
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
      code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace' },
    },
  },
} as const;

/**
 * The one address Redoc's bundle loads by itself: the logo beside "API docs by Redocly" at the foot of its
 * menu, rendered unconditionally. The policy would block it, but the attempt would still be a request
 * leaving the page, so the page ships an empty image in its place (the link and its text stay).
 */
const REDOC_LOGO = '"https://cdn.redoc.ly/redoc/logo-mini.svg"';
const EMPTY_IMAGE = JSON.stringify(`data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')}`);

/**
 * Reads the standalone bundle of the installed `redoc` package (browser code: read as text, never run
 * here), with its logo address replaced. test/gateway/docs/docs-browser.test.ts fails if a later Redoc
 * loads anything else from outside.
 */
export function readRedocBundle(): string {
  const require = createRequire(import.meta.url);
  return readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8').replaceAll(REDOC_LOGO, EMPTY_IMAGE);
}

/** JSON that is safe inside a `<script>` element: `<` escaped, so no `</script>` or `<!--` can close it. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Composes the page from the document and Redoc's bundle. Pure: the same inputs give the same bytes, so the
 * gateway builds it once per app (the document depends only on code) and never per request.
 */
export function renderDocsPage(openApiDocument: object, redocBundle: string, title: string): DocsPage {
  if (/<\/script/i.test(redocBundle)) throw new Error('the Redoc bundle contains </script> and cannot be inlined');
  const init = [
    `var spec = JSON.parse(document.getElementById('openapi-document').textContent);`,
    `Redoc.init(spec, ${scriptSafeJson(REDOC_OPTIONS)}, document.getElementById('redoc'));`,
  ].join('\n');
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body { margin: 0; padding: 0; }</style>',
    '</head>',
    '<body>',
    '<noscript>This reference is rendered by JavaScript; the same description is at <a href="/openapi.json">/openapi.json</a>.</noscript>',
    '<div id="redoc"></div>',
    `<script type="application/json" id="openapi-document">${scriptSafeJson(openApiDocument)}</script>`,
    `<script>${redocBundle}</script>`,
    `<script>${init}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
  const body = Buffer.from(html, 'utf8');
  return {
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
    contentSecurityPolicy: contentSecurityPolicy([sha256(redocBundle), sha256(init)]),
  };
}

/**
 * Nothing may load from anywhere, ourselves included: the page needs no request. Scripts run only when
 * their hash is listed (no 'unsafe-inline', no 'unsafe-eval'). Styles need 'unsafe-inline': Redoc styles
 * its components with styled-components, which writes <style> elements and style attributes at run time,
 * so no hash can be known in advance. Redoc's search index runs in a worker it starts from a blob: URL.
 */
function contentSecurityPolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHashes.join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
