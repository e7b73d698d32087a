#!/usr/bin/env node
// Runs an ONNX model with ONNX Runtime (single thread) and writes what came out.
//
//   node run-model.js MODEL INPUTS.json OUTPUT.json [--dims-only]
//
// INPUTS.json: {"name": {"dtype": "float32"|"int64", "dims": [..], "fill": number}}
// OUTPUT.json: {"name": {"dims": [..], "data": [..]}} (no data with --dims-only)
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

const typed = {
  float32: (n, v) => new Float32Array(n).fill(v),
  int64: (n, v) => new BigInt64Array(n).fill(BigInt(Math.trunc(v))),
  int32: (n, v) => new Int32Array(n).fill(Math.trunc(v)),
};

async function main() {
  const [model, inputsPath, outputPath, flag] = process.argv.slice(2);
  if (!model || !inputsPath || !outputPath) {
    console.error('usage: run-model.js MODEL INPUTS.json OUTPUT.json [--dims-only]');
    process.exit(2);
  }
  const spec = JSON.parse(fs.readFileSync(inputsPath, 'utf8'));
  const feeds = {};
  for (const [name, input] of Object.entries(spec)) {
    const count = input.dims.reduce((a, b) => a * b, 1);
    const make = typed[input.dtype];
    if (!make) throw new Error(`input ${name}: unsupported dtype ${input.dtype}`);
    feeds[name] = new ort.Tensor(input.dtype, make(count, input.fill || 0), input.dims);
  }
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'disabled',
  });
  const results = await session.run(feeds);
  const out = {};
  for (const name of Object.keys(results).sort()) {
    const tensor = results[name];
    out[name] = { dims: tensor.dims.map(Number) };
    if (flag !== '--dims-only') out[name].data = Array.from(tensor.data, Number);
  }
  fs.writeFileSync(outputPath, JSON.stringify(out));
}

main().catch((e) => { console.error(`run-model: ${e.message}`); process.exit(1); });
