/**
 * Observable Plot (the insights charts, decision 0030) puts two fixed style
 * sheets inside each chart: one for the chart, one for its legend. The app's
 * CSP allows no inline style, so these two exact texts are allowed by their
 * SHA-256 (any other inline style stays blocked). A Plot upgrade that changes
 * them shows as a CSP violation in e2e/insights.test.ts: put the new hashes
 * from the browser's message here.
 */
export const PLOT_STYLE_HASHES = [
  "'sha256-jSYQUrW7J0b3jPqhZP9C2Xh1PyJKHKXd4s0fpGGKrww='",
  "'sha256-rCZUQsEQJf1DmnfnMZmlj08XC7qbIZySA6bEtitbQ00='",
]
