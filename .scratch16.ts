import { splitFullName } from './src/normalize/names.js';
import { normalizeLocation } from './src/normalize/location.js';
import { normalizeLanguage } from './src/normalize/language.js';
import { canonicalTimezone } from './src/normalize/timezone.js';
splitFullName('warm up'); normalizeLocation('x'); normalizeLanguage('x');
for (const s of ['0'.repeat(10000),'a'.repeat(100000),' '.repeat(10000),'Dr. '.repeat(1000),'de '.repeat(1000),'+'.repeat(1000),'\u0301'.repeat(1000), 'John Smith '.repeat(25)]) {
  let t = performance.now(); splitFullName(s); const a = performance.now()-t;
  t = performance.now(); normalizeLocation(s); const b = performance.now()-t;
  t = performance.now(); normalizeLanguage(s); const c = performance.now()-t;
  t = performance.now(); canonicalTimezone(s); const d = performance.now()-t;
  console.log(JSON.stringify(s.slice(0,8)), s.length, a.toFixed(2), b.toFixed(2), c.toFixed(2), d.toFixed(2));
}
let t = performance.now(); for (let i=0;i<10000;i++) splitFullName('Dr. John Michael Smith Jr.'); console.log('10k split', performance.now()-t);
