/** The report panel's webview type: also the serializer's key (registered at activation), so it never changes. */
export const REPORT_PANEL_VIEW_TYPE = 'pageReports.report';
