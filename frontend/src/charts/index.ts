export { Chart } from "./Chart";
export * from "./options";
export * from "./format";
export * from "./insight";
