import * as tz from '@vvo/tzdb';
const fmt = new Map();
function off(z, t) { let f = fmt.get(z); if (!f) { f = new Intl.DateTimeFormat('en-US',{timeZone:z, timeZoneName:'longOffset'}); fmt.set(z,f);} const p = f.formatToParts(t).find(p=>p.type==='timeZoneName').value; return p; }
function sig(z) { const start = Date.UTC(new Date().getUTCFullYear(),0,1); const out=[]; for (let d=0; d<730*2; d++) out.push(off(z, start + d*12*3600e3)); return out.join(','); }
const byCountry = {};
for (const z of tz.rawTimeZones) (byCountry[z.countryCode] ??= []).push(z.name);
let single=0, collapse=[], multi=[];
for (const [c, zs] of Object.entries(byCountry)) {
  if (zs.length === 1) { single++; continue; }
  const sigs = new Set(zs.map(sig));
  if (sigs.size === 1) collapse.push(c+':'+zs.join('|')); else multi.push(c+':'+zs.length+'/'+sigs.size);
}
console.log(single, Object.keys(byCountry).length); console.log('collapse', collapse); console.log('multi', multi.join(' '));
