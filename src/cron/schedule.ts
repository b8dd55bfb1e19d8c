// Checks a schedule before it is stored (tool-created jobs): time zone, interval, one-off instant, expression.
import type { CronSchedule } from '../config/types.ts';
import { scheduleErrors } from './cron-messages.ts';

/** Checks a cron expression in a time zone; returns the reason it is invalid, or null. */
export type CronExpressionCheck = (expr: string, tz: string) => string | null;

export const MIN_TOOL_EVERY_MS = 1000;

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Returns the error naming what is wrong, or null when the schedule can be stored. */
export function checkSchedule(
  schedule: CronSchedule,
  checkExpr: CronExpressionCheck,
  now: number,
): string | null {
  switch (schedule.kind) {
    case 'cron': {
      if (!isTimeZone(schedule.tz)) return scheduleErrors.unknownTz(schedule.tz);
      if (schedule.expr.trim() === '') return scheduleErrors.emptyExpr();
      const reason = checkExpr(schedule.expr.trim(), schedule.tz);
      return reason === null ? null : scheduleErrors.badExpr(schedule.expr, reason);
    }
    case 'every':
      return Number.isInteger(schedule.every_ms) && schedule.every_ms >= MIN_TOOL_EVERY_MS
        ? null
        : scheduleErrors.badEvery();
    case 'at': {
      const t = Date.parse(schedule.at);
      if (!RFC3339.test(schedule.at) || Number.isNaN(t)) return scheduleErrors.badAt(schedule.at);
      return t <= now ? scheduleErrors.pastAt(schedule.at) : null;
    }
  }
}
