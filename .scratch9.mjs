import { countryToAlpha2 } from 'country-to-iso';
import countries from 'i18n-iso-countries';
for (const s of ['Congo','England','Holland','Burma','Côte d’Ivoire','Cote d\'Ivoire','UK','U.K.','Great Britain','Scotland','Wales','Northern Ireland','USA','America','United States','Korea','South Korea','Russia','Vatican','Kosovo','Palestine','Macedonia','Swaziland','Czechia','Ivory Coast','The Netherlands','EL','California','Texas','Bavaria','Punjab','Georgia','Jersey','Victoria','Washington']) console.log(s, countryToAlpha2(s));
console.log(countries.isValid('XK'), countries.getNames('en',{select:'all'}).XK, countries.alpha3ToAlpha2('XKX'));
