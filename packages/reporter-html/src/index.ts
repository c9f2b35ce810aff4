export { default, renderReport, type HtmlOptions } from './reporter.js';
export { startDashboard, type Dashboard, type DashboardOptions } from './server/dashboard.js';
export type { BootData, LiveMessage, RunSummary } from './shared/live.js';
