import * as tz from '@vvo/tzdb';
const icu = n => { try { return new Intl.DateTimeFormat('en',{timeZone:n}).resolvedOptions().timeZone } catch { return null } };
const modern = new Map();
for (const n of tz.timeZonesNames) { const c = icu(n); if (!c) { console.log('ICU rejects', n); continue; } if (c !== n) { if (modern.has(c)) console.log('conflict', c, modern.get(c), n); modern.set(c, n); } }
console.log([...modern].map(([a,b])=>a+'→'+b).join(' '));
const sv = Intl.supportedValuesOf('timeZone');
console.log('supported not in vvo names (after modern):', sv.filter(z => !tz.timeZonesNames.includes(modern.get(z) ?? z)));
const groupNames = new Set(tz.rawTimeZones.flatMap(z=>z.group));
console.log('vvo group members not in timeZonesNames', [...groupNames].filter(n=>!tz.timeZonesNames.includes(n)).length);
console.log('timeZonesNames not in any group', tz.timeZonesNames.filter(n=>!groupNames.has(n)));
console.log(tz.tzdbVersion);
