/**
 * Campaign reports (issue 27): which links (link-selection), which days (report-days, UTC days), which rows
 * (report-rows, report-columns), the requests (collect-report) and the CSV file (report-csv).
 */
export { campaignTagsOf, type CampaignTags } from './campaign-of-link';
export { chosenEntryOf, describeSelection, isSelected, type LinkSelection } from './link-selection';
export { BREAKDOWN_PERIOD, NO_CAMPAIGN, NOT_LISTED, REPORT_COLUMNS, SHAPE_HELP, type Breakdown, type ReportShape } from './report-columns';
export { daysOf, lastCompleteDays, MAX_REPORT_DAYS, readDayRange, type DayRange } from './report-days';
export { lastClosedDay, serviceDay } from '../../basics/calendar-days';
export { breakdownRows, campaignDayRows, campaignTotalRows, clicksPerDay, linkDayRows, linkTotalRows, totalClicksInRange, type ReportLink, type ReportRow } from './report-rows';
export { buildReport, type ReportTable } from './build-report';
export { collectReport, MAX_REPORT_LINKS, TIME_LIMITED_MAX_REQUESTS, type CollectedReport, type CollectOptions } from './collect-report';
export { reportCsv, reportCsvFile } from './report-csv';
