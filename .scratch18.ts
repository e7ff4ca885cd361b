import { splitFullName, fillMissingName, joinFullName } from './src/normalize/names.js';
const NASTY = ['','0'.repeat(10_000),'a'.repeat(100_000),' '.repeat(10_000),'Dr. '.repeat(1000),'de '.repeat(1000),'+'.repeat(1000),'-'.repeat(1000),'\u0301'.repeat(1000)];
for (const x of NASTY) { const t=performance.now(); splitFullName(x); fillMissingName(x,{firstName:x}); fillMissingName(x,{lastName:x}); joinFullName(x,x); console.log(JSON.stringify(x.slice(0,5)), (performance.now()-t).toFixed(1)); }
