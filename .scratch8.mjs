import countries from 'i18n-iso-countries';
const norm = s => s.normalize('NFD').replace(/[\u0300-\u036f\u0591-\u05c7]/g,'').toLowerCase().replace(/['’‘ʼ`´]/g,'').replace(/[^\p{L}\p{N}\p{M}]+/gu,' ').trim();
const m = new Map();
for (const lang of countries.langs()) {
  const names = countries.getNames(lang, {select:'all'});
  for (const [code, list] of Object.entries(names)) for (const n of list) { const k = norm(n); if (!k) continue; (m.get(k) ?? m.set(k, new Map()).get(k)).set(code, (m.get(k).get(code) ?? []).concat(lang)); }
}
let conf = 0;
for (const [k, v] of m) if (v.size > 1) { conf++; console.log(k, JSON.stringify(Object.fromEntries(v))); }
console.log(m.size, conf);
