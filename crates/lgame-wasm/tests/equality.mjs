// The WebAssembly engine's answers for the Node equality test (crates/lgame-cli/tests/
// wasm_equality.rs): reads JSON lines {variant, position, selected, laid} from the file
// named first, writes one JSON line {analysis, position} (position: null unless laid) for each to the file named second,
// through the page's own glue (web/js/engine/wasm.js) and the committed engine.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { instantiate } from '../../lgame-web/web/js/engine/wasm.js';

const [input, output] = process.argv.slice(2);
const engine = await instantiate(readFileSync(new URL('../../lgame-web/web/engine/lgame.wasm', import.meta.url)));
const out = openSync(output, 'w');
for (const line of readFileSync(input, 'utf8').split('\n')) {
  if (!line) continue;
  const { variant, position, selected, laid } = JSON.parse(line);
  const analysis = engine.ask({ op: 'analysis', variant, position });
  const answer = laid ? engine.ask({ op: 'position', variant, position, selected }) : null;
  writeSync(out, JSON.stringify({ analysis, position: answer }) + '\n');
}
closeSync(out);
