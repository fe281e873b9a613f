'use strict';
// Shared helpers for the node:test suites (no dependencies beyond node itself).

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const Module = require('node:module');

const EXTENSION_ROOT = path.resolve(__dirname, '..');

/** Reads every entry of a zip file (a .vsix) into a Map of name -> Buffer. */
function readZip(file) {
  const buf = fs.readFileSync(file);
  // End of central directory: signature 0x06054b50, within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file}: not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central directory entry`);
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const localHeader = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;

    if (buf.readUInt32LE(localHeader) !== 0x04034b50) throw new Error(`${file}: bad local header for ${name}`);
    const dataStart = localHeader + 30 + buf.readUInt16LE(localHeader + 26) + buf.readUInt16LE(localHeader + 28);
    const raw = buf.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) entries.set(name, Buffer.from(raw));
    else if (method === 8) entries.set(name, zlib.inflateRawSync(raw));
    else throw new Error(`${file}: ${name} uses unsupported compression method ${method}`);
  }
  return entries;
}

/** Bundles a TypeScript entry point with esbuild (a devDependency); `vscode` stays external. */
function bundleTs(file) {
  const esbuild = require('esbuild');
  const result = esbuild.buildSync({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    external: ['vscode'],
  });
  return result.outputFiles[0].text;
}

/** Compiles a TypeScript file and loads it as CommonJS; `require('vscode')` gets `vscodeStub`. */
function requireTs(file, vscodeStub) {
  const m = new Module(file, module);
  m.filename = file;
  m.paths = Module._nodeModulePaths(path.dirname(file));
  const code = bundleTs(file);
  if (!vscodeStub) {
    m._compile(code, file);
    return m.exports;
  }
  const originalLoad = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return vscodeStub;
    return originalLoad.call(this, request, parent, isMain);
  };
  try {
    m._compile(code, file);
  } finally {
    Module._load = originalLoad;
  }
  return m.exports;
}

module.exports = { EXTENSION_ROOT, readZip, bundleTs, requireTs };
