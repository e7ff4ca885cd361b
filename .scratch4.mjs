import { match } from '@formatjs/intl-localematcher';
const S = ['en-US','en-GB','he-IL','fr-FR','de-DE','es-ES','es-MX','es-US','es-419'];
for (const t of ['en','es','fr','de','he','iw','es-AR','en-AU','en-CA','fr-CA','de-AT','de-CH','pt-BR','ca','es-CO','es-PR','en-IN','en-IE','en-NZ','en-ZA','es-419','es-US','es-MX','fr-BE','fr-CH','he','yi','en-IL','es-GQ','es-PH','en-SG','en-HK','en-PH','es-CU', 'gsw','nb','it','de-LI','fr-LU','fr-CM','en-001','en-150','und']) {
  let r; try { r = match([t], S, 'und', {algorithm:'best fit'}); } catch(e) { r = 'ERR '+e.message }
  let l; try { l = match([t], S, 'und', {algorithm:'lookup'}); } catch(e) { l = 'ERR '+e.message }
  console.log(t, Intl.getCanonicalLocales(t)[0], r, l);
}
for (const t of ['English','Klingon','xx','EN_us','en_us','i-klingon','zh-hant-tw','HE','x-foo']) { try { console.log(t, Intl.getCanonicalLocales(t.replace(/_/g,'-'))) } catch(e) { console.log(t,'ERR', e.message) } }
const dn = new Intl.DisplayNames(['es'], {type:'language'});
console.log(dn.of('es-MX'), dn.of('es-419'), dn.of('en-US'), new Intl.DisplayNames(['en'],{type:'language'}).of('es-419'), new Intl.DisplayNames(['he'],{type:'language'}).of('he'), new Intl.DisplayNames(['he'],{type:'language'}).of('he-IL'), new Intl.DisplayNames(['fr'],{type:'language'}).of('en'), new Intl.DisplayNames(['en'],{type:'language', languageDisplay:'standard'}).of('es-419'));
console.log(Intl.DateTimeFormat.supportedLocalesOf(['he','fr','de','es','en']));
