/** Short name for the JSON printer (event-details.ts imports it as `./json.js`). */
export {prettyJson, prettyJsonString, type PrettyJsonOptions} from './truncate-json.js';
