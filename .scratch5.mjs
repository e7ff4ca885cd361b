import { match } from '@formatjs/intl-localematcher';
const S = ['en-US','en-GB','he-IL','fr-FR','de-DE','es-ES','es-MX','es-US','es-419'];
let t0=performance.now(); for (let i=0;i<1000;i++) match(['es-AR'], S, 'und', {algorithm:'best fit'}); console.log('match us/call', (performance.now()-t0));
for (const t of ['eng','deu','ger','fra','fre','spa','heb','iw-IL','en-Latn-US','zh','sgn-US','EN-gb']) { try { console.log(t, Intl.getCanonicalLocales(t)) } catch(e) { console.log(t,'ERR') } }
const dn = new Intl.DisplayNames(['en'], {type:'region'});
t0=performance.now(); const L = new Intl.DisplayNames(['de'], {type:'language'}); for (let i=0;i<10000;i++) L.of('es-AR'); console.log('dn 10k ms', performance.now()-t0);
console.log(L.of('es-AR'), L.of('de-CH'), new Intl.DisplayNames(['en'], {type:'language'}).of('de-CH'),new Intl.DisplayNames(['en'], {type:'language'}).of('fr-CA'), new Intl.DisplayNames(['en'], {type:'language'}).of('en-US'));
