/** A summary's line before it is sanitized: its words and their tone (event-summary.ts and its event-summary-*.ts parts). */

export type SummaryTone = 'normal' | 'error' | 'warn' | 'muted';

export type Line = {text: string; tone: SummaryTone};

export const line = (text: string, tone: SummaryTone = 'normal'): Line => ({text, tone});
