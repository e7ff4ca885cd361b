import { getExampleNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/examples.mobile.json';
for (const c of ['IL','GB','US','DE','PT','FR','ES','MX','AU','CA','IN']) console.log(c, getExampleNumber(c as any, examples)?.number);
for (const n of ['+972501234567','+972521234567','+972541234567','+97225671234','+972 3 123 4567']) console.log(n, parsePhoneNumberFromString(n)?.isValid());
