import { normalizeLocation } from './src/normalize/location.js';
const states = ['AL','AK','AZ','AR','CA','CO','CT','DE','FL','GA','HI','ID','IL','IN','IA','KS','KY','LA','ME','MD','MA','MI','MN','MS','MO','MT','NE','NV','NH','NJ','NM','NY','NC','ND','OH','OK','OR','PA','RI','SC','SD','TN','TX','UT','VT','VA','WA','WV','WI','WY','DC','EU','UN','EL','SU','YU','AN','TP','ZR','CS','DD','UK'];
console.log(states.map(s => s + '→' + normalizeLocation(s)).join(' '));
