import { splitFullName } from './src/normalize/names.js';
const A = [...'abcXYZ019 +-_()./,;:\'"`&#*%$@!?~[]{}<>|\\', 'é','א','\n'];
let s = 1; const r = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2**32;
let worst = 0, worstS = '', total = 0;
for (let i=0;i<3000;i++) { let x=''; const n=Math.floor(r()*40); for (let j=0;j<n;j++) x+=A[Math.floor(r()*A.length)]; const t=performance.now(); splitFullName(x); const d=performance.now()-t; total+=d; if (d>worst) { worst=d; worstS=x; } }
console.log('avg ms', total/3000, 'worst', worst, JSON.stringify(worstS));
