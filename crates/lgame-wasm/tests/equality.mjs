// The WebAssembly engine's answers for the Node equality test (crates/lgame-cli/tests/
// wasm_equality.rs): reads JSON lines {variant, position, selected, laid} from the file
// named first and, for its share `K/N` of them (the lines K, K+N, K+2N…), writes one JSON
// line {analysis, position} (position: null unless laid) to its standard output, through
// the page's own glue (web/js/engine/wasm.js) and the committed engine. A line {ask} is a
// request of its own: its line is the engine's answer.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { instantiate } from '../../lgame-web/web/js/engine/wasm.js';

const [input, share = '0/1'] = process.argv.slice(2);
const [shard, shards] = share.split('/').map(Number);
const engine = await instantiate(readFileSync(new URL('../../lgame-web/web/engine/lgame.wasm', import.meta.url)));
// A file of its own on the pipe: blocking writes (Node's own stdout may not block, and a
// synchronous write to it would then fail with EAGAIN when the reader is behind).
const out = openSync('/dev/stdout', 'w');
const lines = readFileSync(input, 'utf8').split('\n').filter((line) => line);
for (let i = shard; i < lines.length; i += shards) {
  const line = JSON.parse(lines[i]);
  // A request of its own (the classes of a value): the engine's answer as it is.
  if (line.ask) {
    writeSync(out, JSON.stringify(engine.ask(line.ask)) + '\n');
    continue;
  }
  const { variant, position, selected, laid } = line;
  const analysis = engine.ask({ op: 'analysis', variant, position });
  const answer = laid ? engine.ask({ op: 'position', variant, position, selected }) : null;
  writeSync(out, JSON.stringify({ analysis, position: answer }) + '\n');
}
closeSync(out);
