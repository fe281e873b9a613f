// Loads the script of a `gpu-lint graph --format html` page with a minimal DOM, as a VS Code webview
// would run it, clicks every node and prints the messages it posted (one JSON line each).
"use strict";
const fs = require("fs");
const page = fs.readFileSync(process.argv[2], "utf8");
const data = /<script type="application\/json" id="graph-data">([\s\S]*?)<\/script>/.exec(page)[1];
const script = /<script nonce="[0-9a-f]+">([\s\S]*?)<\/script>/.exec(page)[1];
const sections = [];
const sectionRe = /<section data-index="([0-9]+)">([\s\S]*?)<\/section>/g;
let m;
while ((m = sectionRe.exec(page)) !== null) {
  const nodes = [];
  const nodeRe = /<g class="node" data-id="([^"]+)">/g;
  let n;
  while ((n = nodeRe.exec(m[2])) !== null) {
    const handlers = [];
    nodes.push({ dataset: { id: n[1] }, addEventListener: (type, fn) => { if (type === "click") handlers.push(fn); }, handlers });
  }
  sections.push({ dataset: { index: m[1] }, querySelectorAll: () => nodes, nodes });
}
const posted = [];
global.acquireVsCodeApi = () => ({ postMessage: (msg) => posted.push(msg) });
global.document = {
  getElementById: (id) => (id === "graph-data" ? { textContent: data.replace(/<\\\//g, "</") } : null),
  querySelectorAll: () => sections,
};
new Function(script)();
for (const s of sections) for (const node of s.nodes) for (const h of node.handlers) h();
for (const msg of posted) console.log(JSON.stringify(msg));
