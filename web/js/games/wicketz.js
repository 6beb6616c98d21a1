// Wicketz screen (filled in against the engine's view).
import { summary, jsonTree } from '../dom.js';
function board(view) { return jsonTree(view); }
function decision() { return null; }
function describe(event) { return summary(event); }
export default { board, decision, describe };
