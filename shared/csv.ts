import type { Options } from 'csv-stringify/sync'

/**
 * How every CSV file of the app is written (csv-stringify options): RFC 4180
 * (CRLF line ends, a header row), a UTF-8 byte order mark so Excel reads the
 * file as UTF-8, text fields quoted, and cells that a spreadsheet would run as
 * a formula (starting with =, +, -, @, tab or carriage return) prefixed with a
 * single quote, as OWASP's "CSV Injection" page describes.
 */
export const CSV_OPTIONS = {
  bom: true,
  header: true,
  record_delimiter: 'windows',
  quoted_string: true,
  escape_formulas: true,
  cast: { boolean: (value: boolean) => (value ? 'true' : 'false') },
} as const satisfies Options

/** The media type of the CSV answers and downloads. */
export const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8; header=present'
