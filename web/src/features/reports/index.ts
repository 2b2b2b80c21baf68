/** The reports feature's public entry: what other features may use of it. */
export { failureMessage, fieldProblems } from './http';
export type { FieldProblem } from './http';
