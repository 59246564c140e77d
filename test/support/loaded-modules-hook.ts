/**
 * Preloaded with `--import` after tsx, records the URL of every module the process loads (through a module
 * hook) and prints them as one `LOADED-MODULES [...]` line on stderr at exit: how a test sees what a command
 * loaded without changing the command.
 */
import { register } from 'node:module';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
port1.unref();
const hooks = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, nextLoad) { port.postMessage(url); return nextLoad(url, context); }
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });

process.on('exit', () => {
  const loaded: string[] = [];
  for (let message = receiveMessageOnPort(port1); message !== undefined; message = receiveMessageOnPort(port1)) loaded.push(String(message.message));
  process.stderr.write(`LOADED-MODULES ${JSON.stringify(loaded)}\n`);
});
