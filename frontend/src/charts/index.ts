export { Chart, preloadCharts } from "./Chart";
export * from "./options";
export * from "./format";
export * from "./insight";
