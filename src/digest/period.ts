// The digest's period: the ISO week (UTC) by default, or the calendar month, as a label
// (`2026-W49`, `2026-11`) and the half-open interval [start, end).

import type { DigestPeriodKind } from '../config/config.js';

export type PeriodKind = DigestPeriodKind;

export interface Period {
  kind: PeriodKind;
  label: string;
  start: Date;
  end: Date;
}

const DAY = 86_400_000;

export function periodOf(kind: PeriodKind, at: Date): Period {
  if (kind === 'month') {
    const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
    const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
    return { kind, label: `${start.getUTCFullYear()}-${String(start.getUTCMonth() + 1).padStart(2, '0')}`, start, end };
  }
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const weekday = (new Date(midnight).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const start = new Date(midnight - weekday * DAY);
  // The ISO year is the year of the week's Thursday.
  const thursday = new Date(start.getTime() + 3 * DAY);
  const isoYear = thursday.getUTCFullYear();
  const firstThursday = Date.UTC(isoYear, 0, 4);
  const firstMonday = firstThursday - ((new Date(firstThursday).getUTCDay() + 6) % 7) * DAY;
  const week = Math.round((start.getTime() - firstMonday) / (7 * DAY)) + 1;
  return { kind, label: `${isoYear}-W${String(week).padStart(2, '0')}`, start, end: new Date(start.getTime() + 7 * DAY) };
}

const PERIOD_FORMS = 'like 2026-W49 or 2026-11 (an ISO week: 01–52, or 53 in a year that has one; or a month: 01–12)';

/** `2026-W49` or `2026-11` back to its period; anything else (week 60, month 13, `2026-49`) is refused, never rolled over. */
export function parsePeriod(label: string): Period {
  const week = /^(\d{4})-W(\d{2})$/.exec(label);
  if (week) {
    const jan4 = Date.UTC(Number(week[1]), 0, 4);
    const monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY;
    const period = periodOf('week', new Date(monday + (Number(week[2]) - 1) * 7 * DAY));
    if (Number(week[2]) >= 1 && period.label === label) return period;
    throw new Error(`period '${label}': ${week[1]} has no week ${week[2]}; a period looks ${PERIOD_FORMS}`);
  }
  const month = /^(\d{4})-(\d{2})$/.exec(label);
  if (month) {
    if (Number(month[2]) >= 1 && Number(month[2]) <= 12) return periodOf('month', new Date(Date.UTC(Number(month[1]), Number(month[2]) - 1, 1)));
    throw new Error(`period '${label}': there is no month ${month[2]}; a period looks ${PERIOD_FORMS}`);
  }
  throw new Error(`period must look ${PERIOD_FORMS}, got '${label}'`);
}

export const inPeriod = (p: Period, iso: string): boolean => {
  const t = Date.parse(iso);
  return t >= p.start.getTime() && t < p.end.getTime();
};

/** The period before `p`: what a scheduled run at the start of a period reports. */
export const previousPeriod = (p: Period): Period => periodOf(p.kind, new Date(p.start.getTime() - 1));

/**
 * The period a digest reports, for the Action and the CLI alike: the current one, except that a
 * scheduled run in a period's first day (the usual Monday-morning schedule) reports the period
 * that just ended, which would otherwise never get its final update.
 */
export function reportedPeriod(kind: PeriodKind, now: Date, scheduled: boolean): Period {
  const current = periodOf(kind, now);
  return scheduled && now.getTime() - current.start.getTime() < DAY ? previousPeriod(current) : current;
}
