// Runs a js/wasm Go program under node the way the page runs main.wasm:
// with wasm_exec.js's own stand-in for the file system (every call but a
// write to stdout or stderr fails), not wasm_exec_node.js's, which hands
// Go node's real file system.
// Usage: node browserfs.js WASM_EXEC_JS PROGRAM.wasm
'use strict';
const fs = require('fs');
require(process.argv[2]);
if (globalThis.fs?.readFileSync) throw new Error('wasm_exec.js took a real file system');
const go = new Go();
go.exit = (code) => process.exit(code);
WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject)
  .then((r) => go.run(r.instance))
  .catch((err) => { console.error(err); process.exit(1); });
