import { splitFullName, fillMissingName } from './src/normalize/names.js';
const ALPHABET = [
  ...'abcXYZ019 +-_()./,;:\'"`&#*%$@!?~[]{}<>|\\',
  'é', 'ß', 'ñ', 'ü', '\u0301', '\u05b0', 'א', 'ב', 'ש', 'ع', '中', '日', 'к', 'Ж', 'ı', 'İ',
  '\u0000', '\u0007', '\n', '\t', '\r', '\u00a0', '\u200b', '\u200e', '\u202e', '\ufeff',
  '\ud83d\ude00', '\ud800', '\udfff', '１', '٤', '’', '״',
];
let s = 20261122; const r = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2**32;
let worst = 0, worstS = '', total = 0;
for (let i=0;i<2000;i++) { let x=''; const n=Math.floor(r()*40); for (let j=0;j<n;j++) x+=ALPHABET[Math.floor(r()*ALPHABET.length)]; const t=performance.now(); splitFullName(x); fillMissingName(x,{firstName:x}); const d=performance.now()-t; total+=d; if (d>worst) { worst=d; worstS=x; } }
console.log('total ms', total, 'worst', worst, JSON.stringify(worstS));
