/** The report panel's webview type: also the serializer's key (registered at activation), so it never changes. */
export const REPORT_PANEL_VIEW_TYPE = 'pageReports.report';
/** The insights panel's webview type (issue #17): the key of its serializer too, so it never changes. */
export const INSIGHTS_VIEW_TYPE = 'pageReports.insights';
