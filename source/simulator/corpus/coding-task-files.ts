/**
 * The files the coding tasks' repositories hold before the agent edits them (corpus/coding-tasks.ts):
 * what the agent views, and the text its str_replace edits.
 */

export const datesPy = `"""Date parsing for invoice headers."""
from datetime import date, timedelta
import re

from dateutil import parser as dateutil_parser

ISO_WEEK = re.compile(r"^(?P<year>\\d{4})-W(?P<week>\\d{2})-(?P<day>[1-7])$")


def parse_invoice_date(raw: str) -> date:
    """Parse the date formats our suppliers send (ISO dates, ISO week dates, free text)."""
    text = raw.strip()
    match = ISO_WEEK.match(text)
    if match:
        year, week, day = (int(match[name]) for name in ("year", "week", "day"))
        return _week_date(year, week, day)
    return dateutil_parser.parse(text, dayfirst=True).date()


def _week_date(year: int, week: int, day: int) -> date:
    monday = date(year, 1, 1) + timedelta(days=(7 - date(year, 1, 1).weekday()) % 7)
    return monday + timedelta(weeks=week - 1, days=day - 1)
`;

export const cartCss = `.summary {
  display: flex;
  align-items: center;
  justify-content: space-between;
  padding: 16px;
  border-top: 1px solid var(--border-subtle);
}

.total {
  font-size: 1.25rem;
  font-weight: 600;
}

.checkout {
  position: absolute;
  right: 16px;
  bottom: 16px;
}
`;

export const listGo = `package orders

import (
	"context"
	"strconv"
)

// List returns one page of orders, newest first.
func (s *Service) List(ctx context.Context, q Query) (Page, error) {
	limit := q.Limit
	if limit <= 0 || limit > 100 {
		limit = 50
	}
	offset, _ := strconv.Atoi(q.PageID)
	rows, err := s.store.ListOrders(ctx, q.CustomerID, offset, limit)
	if err != nil {
		return Page{}, err
	}
	page := Page{Items: rows}
	if len(rows) > limit {
		page.Items = rows[:limit]
		page.NextPageID = strconv.Itoa(offset + limit)
	}
	return page, nil
}
`;

export const clientTs = `import request from 'request';
import {setTimeout as sleep} from 'node:timers/promises';

export type SendResult = {status: number; body: string};

export async function postJson(url: string, payload: unknown, attempts = 3): Promise<SendResult> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await new Promise<SendResult>((resolve, reject) => {
				request.post({url, json: payload, timeout: 10_000}, (error, response, body) => {
					if (error) reject(error);
					else resolve({status: response.statusCode, body: JSON.stringify(body)});
				});
			});
		} catch (error) {
			if (attempt >= attempts) throw error;
			await sleep(250 * 2 ** attempt);
		}
	}
}
`;
