#!/usr/bin/env node
// Runs an ONNX model with ONNX Runtime (one thread unless
// STAGECRAFT_ORT_THREADS says otherwise) and writes what came out.
//
//   node run-model.js MODEL INPUTS.json OUTPUT.json [--dims-only | --time N]
//
// INPUTS.json: {"name": {"dtype": "float32"|"int64", "dims": [..], "fill": number}}
// OUTPUT.json: {"name": {"dims": [..], "data": [..]}} (no data with --dims-only)
// or, when INPUTS.json is a "stagecraft-tensors" file (docs/codegen.md), the
// inputs are its tensors and OUTPUT.json is a stagecraft-tensors file too.
// --time N: after the run, N more timed runs; prints {"median_ms": ...}.
// STAGECRAFT_ORT_OPTIMIZATION: ONNX Runtime's graph optimization level
// ('disabled' by default; 'all' fuses QDQ patterns into QLinear ops).
// session.x64quantprecision is on: on x86 CPUs without VNNI, ONNX Runtime's
// u8 x s8 integer GEMMs sum pairs of products in int16 (vpmaddubsw), which
// saturates for full-range weights; with the option, a graph optimization
// (level 'all') turns them into exact u8 x u8 ones (onnxruntime PR 12088).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

const typed = {
  float32: (n, v) => new Float32Array(n).fill(v),
  int64: (n, v) => new BigInt64Array(n).fill(BigInt(Math.trunc(v))),
  int32: (n, v) => new Int32Array(n).fill(Math.trunc(v)),
};

// stagecraft dtype names <-> ONNX Runtime tensor types and typed arrays.
const kinds = {
  f32: ['float32', Float32Array], f64: ['float64', Float64Array], i64: ['int64', BigInt64Array],
  i32: ['int32', Int32Array], i16: ['int16', Int16Array], i8: ['int8', Int8Array],
  u8: ['uint8', Uint8Array], u16: ['uint16', Uint16Array], bool: ['bool', Uint8Array],
};
const dtypeOf = Object.fromEntries(Object.entries(kinds).map(([name, [ort]]) => [ort, name]));

function tensorFeeds(spec) {
  const feeds = {};
  for (const t of spec.tensors) {
    const kind = kinds[t.dtype];
    if (!kind) throw new Error(`input ${t.name}: unsupported dtype ${t.dtype}`);
    const [type, Typed] = kind;
    const data = Typed === BigInt64Array ? BigInt64Array.from(t.data, (v) => BigInt(v))
                                         : Typed.from(t.data, (v) => (v === null ? NaN : v));
    feeds[t.name] = new ort.Tensor(type, data, t.shape);
  }
  return feeds;
}

function tensorOutputs(results) {
  const tensors = Object.keys(results).sort().map((name) => {
    const t = results[name];
    const dtype = dtypeOf[t.type];
    if (!dtype) throw new Error(`output ${name}: unsupported type ${t.type}`);
    return { name, dtype, shape: t.dims.map(Number), data: Array.from(t.data, Number) };
  });
  return { format: 'stagecraft-tensors', version: 1, tensors };
}

async function main() {
  const [model, inputsPath, outputPath, flag] = process.argv.slice(2);
  if (!model || !inputsPath || !outputPath) {
    console.error('usage: run-model.js MODEL INPUTS.json OUTPUT.json [--dims-only]');
    process.exit(2);
  }
  const spec = JSON.parse(fs.readFileSync(inputsPath, 'utf8'));
  const tensorsFile = spec.format === 'stagecraft-tensors';
  const feeds = tensorsFile ? tensorFeeds(spec) : {};
  for (const [name, input] of tensorsFile ? [] : Object.entries(spec)) {
    const count = input.dims.reduce((a, b) => a * b, 1);
    const make = typed[input.dtype];
    if (!make) throw new Error(`input ${name}: unsupported dtype ${input.dtype}`);
    feeds[name] = new ort.Tensor(input.dtype, make(count, input.fill || 0), input.dims);
  }
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(process.env.STAGECRAFT_ORT_THREADS || 1), interOpNumThreads: 1,
    graphOptimizationLevel: process.env.STAGECRAFT_ORT_OPTIMIZATION || 'disabled',
    extra: { session: { x64quantprecision: '1' } },
  });
  const results = await session.run(feeds);
  if (flag === '--time') {
    const times = [];
    for (let i = 0; i < Number(process.argv[6] || 10); ++i) {
      const start = process.hrtime.bigint();
      await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    console.log(JSON.stringify({ median_ms: times[Math.floor(times.length / 2)] }));
  }
  if (tensorsFile) {
    fs.writeFileSync(outputPath, JSON.stringify(tensorOutputs(results)));
    return;
  }
  const out = {};
  for (const name of Object.keys(results).sort()) {
    const tensor = results[name];
    out[name] = { dims: tensor.dims.map(Number) };
    if (flag !== '--dims-only') out[name].data = Array.from(tensor.data, Number);
  }
  fs.writeFileSync(outputPath, JSON.stringify(out));
}

main().catch((e) => { console.error(`run-model: ${e.message}`); process.exit(1); });
