/**
 * ECharts' per-chart and per-component modules (package exports `./lib/chart/*`,
 * `./lib/component/*`): each registers its part with the shared extension registry of
 * `echarts/core` when imported, and has no declarations of its own. Importing only the parts the
 * report draws loads ECharts in half the time of `echarts/charts` + `echarts/components`.
 */
declare module "echarts/lib/chart/bar";
declare module "echarts/lib/chart/line";
declare module "echarts/lib/component/grid";
declare module "echarts/lib/component/legend";
declare module "echarts/lib/component/aria";
