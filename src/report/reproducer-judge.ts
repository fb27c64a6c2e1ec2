/**
 * The judge every reproducer script embeds, run with `node -e` (node is there
 * wherever the suite runs; jq may not be): it reads the answers the script
 * saved (`<dir>/<n>.status`, `<dir>/<n>.body`) and judges each check of
 * reproducer-checks.ts. It prints one line per check and exits 1 when any
 * answer still departs, 0 when every one conforms, 2 when an answer is missing,
 * 3 when the answers cannot tell (the target is not in the state the FAIL
 * started from, or a revocation sent again was refused: what follows it says
 * nothing of the FAIL's condition).
 * Plain JavaScript that any supported node runs, with no dependency.
 */
export const REPRODUCER_JUDGE = String.raw`'use strict';
const fs = require('fs');
const dir = process.argv[1];
const checks = JSON.parse(process.argv[2]);
function answer(n) {
  return { status: fs.readFileSync(dir + '/' + n + '.status', 'utf8').trim(), body: fs.readFileSync(dir + '/' + n + '.body', 'utf8') };
}
function parsed(a) {
  try { return { ok: true, value: JSON.parse(a.body) }; } catch (e) { return { ok: false }; }
}
function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') return Object.keys(v).sort().reduce(function (o, k) { o[k] = canonical(v[k]); return o; }, {});
  return v;
}
function same(a, b) { return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b)); }
function span(range) {
  const m = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/.exec(String(range));
  return m ? { start: m[1], end: m[2] } : undefined;
}
function mayCover(range, day) { const s = span(range); return !!s && s.start <= day && day <= s.end; }
function surelyCovers(range, day) { const s = span(range); return !!s && s.start <= day && day < s.end; }
function list(a, what) {
  const j = parsed(a);
  if (!j.ok || !Array.isArray(j.value)) throw new Departs(what + ' did not answer a JSON list');
  return j.value;
}
// The value at a path of the answer's JSON body; undefined where there is none (a body that is not JSON departs).
function at(a, path) {
  const j = parsed(a);
  if (!j.ok) throw new Departs('the body is not a JSON document');
  let v = j.value;
  for (const k of path) v = v === null || typeof v !== 'object' ? undefined : v[k];
  return v;
}
function Departs(message) { this.message = message; }
function CannotTell(message) { this.message = message; }
function roleList(a, what) {
  return list(a, what).map(function (x) {
    if (!x || typeof x !== 'object') return x;
    const y = Object.assign({}, x);
    if (Array.isArray(y.team_ids)) y.team_ids = y.team_ids.slice().sort();
    return y;
  }).sort(function (x, y) { const p = JSON.stringify(canonical(x)), q = JSON.stringify(canonical(y)); return p < q ? -1 : p > q ? 1 : 0; });
}
function idsIn(data) {
  return Array.isArray(data) ? data.map(function (r) { return r && r.id; }).filter(function (id) { return typeof id === 'string'; }) : [];
}
// The walk the script followed from request n: its pages n, n.2, n.3… up to the first that is no list of
// resources (unread: what a judge says when it found no departure before it), and whether it ended (§4.9 rule 3).
function walkOf(n) {
  const count = Number(fs.readFileSync(dir + '/' + n + '.pages', 'utf8'));
  const pages = [];
  for (let k = 1; k <= count; k++) {
    const a = answer(k === 1 ? n : n + '.' + k);
    const j = parsed(a);
    if (a.status !== '200' || !j.ok || !j.value || !Array.isArray(j.value.data)) {
      return { pages: pages, unread: 'page ' + k + ' of the walk from request ' + n + ' answered ' + a.status + ' with no list of resources: the walk cannot be judged' };
    }
    pages.push(j.value);
  }
  const last = pages[pages.length - 1];
  const ended = !last || typeof last.next_token !== 'string' || last.data.length === 0;
  return { pages: pages, unread: ended ? null : 'the walk from request ' + n + ' had not ended after ' + count + ' pages (the run\'s walk was shorter): follow it further to judge it' };
}
// A walk read to its end, or the script cannot tell.
function whole(w) {
  if (w.unread) throw new CannotTell(w.unread);
}
// Every week sent shown at its place, each day within rounding, and no other (nothing sent: anything).
function weeksShown(shown, sent) {
  if (sent === undefined) return true;
  if (!Array.isArray(shown) || shown.length !== sent.length) return false;
  return sent.every(function (week, k) {
    return ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].every(function (d) {
      const b = shown[k] && shown[k][d];
      return typeof week[d] === 'number' && typeof b === 'number' && Math.abs(week[d] - b) <= 0.5;
    });
  });
}
const judges = {
  status: function (c, a) {
    const ok = c.expected.some(function (e) { return /xx$/.test(e) ? a.status.charAt(0) === e.charAt(0) : a.status === e; });
    return ok ? null : 'status ' + a.status + ', expected ' + c.expected.join(' or ');
  },
  'done-or-warned': function (c, a) {
    const j = parsed(a);
    const warned = j.ok && j.value && typeof j.value === 'object' && 'warning_type' in j.value;
    return a.status.charAt(0) === '2' || warned ? null : 'status ' + a.status + ', expected 2xx or a warning';
  },
  json: function (c, a) { return parsed(a).ok ? null : 'the body is not a JSON document'; },
  empty: function (c, a) { return a.body === '' ? null : 'the body is not empty'; },
  'value-at': function (c, a) {
    const j = parsed(a);
    if (!j.ok) return 'the body is not a JSON document';
    let v = j.value;
    for (const k of c.path) v = v === null || typeof v !== 'object' ? undefined : v[k];
    return same(v, c.departing) ? 'still ' + JSON.stringify(v) + ' at ' + JSON.stringify(c.path) : null;
  },
  // Answers compared: the filtered read keeps exactly the unfiltered read's assignations on the teams (and head) asked for.
  'team-filter': function (c, a) {
    const keys = function (b, what) {
      if (b.status !== '200') throw new CannotTell(what + ' answered ' + b.status + ': nothing to compare');
      return list(b, what).map(function (x) { return (x && x.team && x.team.id) + '/' + (x && x.head) + '/' + (x && x.date_range); }).sort();
    };
    const all = keys(answer(c.reference), 'the unfiltered read');
    const shown = keys(a, 'the filtered read');
    const want = all.filter(function (k) {
      return c.teamIds.some(function (t) { return k.indexOf(t + '/') === 0; }) && (c.head === undefined || k.split('/')[1] === String(c.head));
    });
    return same(shown, want) ? null : 'shows ' + JSON.stringify(shown) + ', the unfiltered read on those teams ' + JSON.stringify(want);
  },
  'head-filter': function (c, a) {
    const read = function (b, what) {
      if (b.status !== '200') throw new CannotTell(what + ' answered ' + b.status + ': nothing to compare');
      return list(b, what);
    };
    const all = read(answer(c.reference), 'the unfiltered read');
    const shown = read(a, 'the filtered read');
    const other = shown.filter(function (x) { return !x || x.head !== c.head; });
    if (other.length > 0) return other.length + ' assignations whose head is not ' + c.head;
    const some = all.some(function (x) { return x && x.head === c.head; });
    return shown.length === 0 && some ? 'none shown, where the unfiltered read shows assignations whose head is ' + c.head : null;
  },
  // Two reads over ranges, each with a record lying across its range the same way: both shown (a period within it) or both left out.
  'shown-alike': function (c, a) {
    const ranges = function (b, what) {
      if (b.status !== '200') throw new CannotTell(what + ' answered ' + b.status + ': nothing to compare');
      return list(b, what).map(function (p) { return p && p.date_range; });
    };
    const wide = ranges(answer(c.wide), 'the wide read');
    const gone = c.records.filter(function (r) { return wide.indexOf(r) < 0; });
    if (gone.length > 0) throw new CannotTell('the wide read shows no record ' + gone[0] + ': the target holds other data');
    const shows = function (list, record) {
      const whole = span(record);
      return list.some(function (r) { const s = span(r); return !!s && !!whole && whole.start <= s.start && s.end <= whole.end; });
    };
    const one = shows(ranges(answer(c.reference), 'request ' + c.reference), c.records[0]);
    const other = shows(ranges(a, 'request ' + c.at), c.records[1]);
    return one === other ? null : 'request ' + c.reference + (one ? ' shows ' : ' leaves out ') + c.records[0] + ', request ' + c.at + (other ? ' shows ' : ' leaves out ') + c.records[1] + ', which lies across its range the same way';
  },
  // Two list-roles reads: the associations both let through are shown alike by each.
  'roles-agree': function (c, a) {
    const both = function (x) {
      return x && c.asked.every(function (q) { return q.resourceIds.indexOf(x.resource_id) >= 0 && q.roleIds.indexOf(x.role_id) >= 0; });
    };
    const keys = function (b, what) {
      if (b.status !== '200') throw new CannotTell(what + ' answered ' + b.status + ': nothing to compare');
      const read = parsed(b);
      if (!read.ok || !Array.isArray(read.value)) throw new CannotTell(what + ' is no list: nothing to compare');
      return read.value.filter(both).map(function (x) {
        const teams = Array.isArray(x.team_ids) ? x.team_ids.slice().sort().join(',') : String(x.team_ids);
        return x.resource_id + '/' + x.role_id + '/' + String(x.is_assigned) + '/' + teams;
      }).sort();
    };
    const one = keys(answer(c.reference), 'request ' + c.reference);
    const other = keys(a, 'request ' + c.at);
    return same(one, other) ? null : 'request ' + c.reference + ' shows ' + JSON.stringify(one) + ', request ' + c.at + ' ' + JSON.stringify(other) + ' of the associations both ask for';
  },
  // A list-roles read of several ids: only associations of those, and those the reads of each resource alone show.
  'roles-union': function (c, a) {
    const key = function (x) {
      const teams = x && Array.isArray(x.team_ids) ? x.team_ids.slice().sort().join(',') : String(x && x.team_ids);
      return (x && x.resource_id) + '/' + (x && x.role_id) + '/' + String(x && x.is_assigned) + '/' + teams;
    };
    const want = new Set();
    for (const n of c.alone) {
      const b = answer(n);
      const read = parsed(b);
      if (b.status !== '200' || !read.ok || !Array.isArray(read.value)) throw new CannotTell('the read of request ' + n + ' (one resource alone) answered ' + b.status + ' with no list: nothing to compare');
      for (const x of read.value) if (x && c.roleIds.indexOf(x.role_id) >= 0) want.add(key(x));
    }
    if (a.status !== '200') throw new CannotTell('the read answered ' + a.status + ': nothing to compare');
    const shown = list(a, 'resources.list-roles');
    const stray = shown.filter(function (x) { return !x || c.resourceIds.indexOf(x.resource_id) < 0 || c.roleIds.indexOf(x.role_id) < 0; });
    if (stray.length > 0) return stray.length + ' associations outside the resource_ids and role_ids asked for, e.g. ' + JSON.stringify(stray[0]);
    if (c.alone.length === 0) return null;
    const got = new Set(shown.map(key));
    const missing = [...want].filter(function (k) { return !got.has(k); });
    const extra = [...got].filter(function (k) { return !want.has(k); });
    return missing.length + extra.length === 0 ? null : 'missing ' + JSON.stringify(missing.slice(0, 3)) + ', unexpected ' + JSON.stringify(extra.slice(0, 3)) + ', against the reads of each resource alone';
  },
  'roles-absent': function (c, a) {
    if (a.status !== '200') throw new CannotTell('answered ' + a.status + ': no associations to judge');
    const shown = list(a, 'resources.list-roles').filter(function (x) { return x && c.roleIds.indexOf(x.role_id) >= 0; });
    return shown.length === 0 ? null : shown.length + ' associations of roles ' + c.roleIds.join(', ') + ', e.g. ' + JSON.stringify(shown[0]);
  },
  'ids-within': function (c, a) {
    const v = at(a, c.path);
    if (!Array.isArray(v)) throw new CannotTell('no list at ' + JSON.stringify(c.path) + ' (status ' + a.status + ')');
    const outside = v.map(function (r) { return r && r.id; }).filter(function (id) { return typeof id === 'string' && c.allowed.indexOf(id) < 0; });
    return outside.length === 0 ? null : 'resources ' + outside.join(', ') + ' listed, outside the ids asked for';
  },
  // As the suite reads an error's message (§7): under the names error formats commonly give it.
  'error-message': function (c, a) {
    if (a.status.charAt(0) !== '4') throw new CannotTell('answered ' + a.status + ', not an error answer: it says nothing of the message');
    const j = parsed(a);
    const named = ['message', 'detail', 'title', 'error', 'error_description'].some(function (k) {
      const v = j.ok && j.value && typeof j.value === 'object' ? j.value[k] : undefined;
      const m = v && typeof v === 'object' ? v.message : v;
      return typeof m === 'string' && m.trim() !== '';
    });
    return named ? null : 'the ' + a.status + ' answer has no message describing the problem';
  },
  'length-at-most': function (c, a) {
    const v = at(a, c.path);
    if (!Array.isArray(v)) throw new CannotTell('no list at ' + JSON.stringify(c.path) + ' (status ' + a.status + ')');
    return v.length > c.max ? v.length + ' entries at ' + JSON.stringify(c.path) + ', expected at most ' + c.max : null;
  },
  'type-at': function (c, a) {
    // The entry that should hold the value must be there: a shorter list says nothing of the value's type.
    const parent = at(a, c.path.slice(0, -1));
    if (!parent || typeof parent !== 'object') throw new CannotTell('nothing at ' + JSON.stringify(c.path.slice(0, -1)) + ' (status ' + a.status + ')');
    const v = at(a, c.path);
    const t = v === undefined ? 'absent' : v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
    return t === c.type ? null : t + ' at ' + JSON.stringify(c.path) + ', expected ' + c.type;
  },
  'ranges-meet': function (c, a) {
    if (a.status !== '200') throw new CannotTell('answered ' + a.status + ': no records to judge');
    const asked = span(c.range);
    const outside = list(a, 'the read').filter(function (x) {
      const s = span(x && x.date_range);
      return s && asked && (s.end < asked.start || s.start > asked.end);
    });
    return outside.length === 0 ? null : outside.length + ' records outside ' + c.range + ', e.g. ' + JSON.stringify(outside[0].date_range);
  },
  'count-present': function (c, a) {
    const page = at(a, c.path);
    if (!page || typeof page !== 'object' || Array.isArray(page)) throw new CannotTell('no page at ' + JSON.stringify(c.path) + ' (status ' + a.status + ')');
    return typeof page.total_count === 'number' && typeof page.total_count_approximate === 'boolean' ? null : 'total_count ' + JSON.stringify(page.total_count) + ' and total_count_approximate ' + JSON.stringify(page.total_count_approximate) + ', expected a number and a boolean';
  },
  'has-property': function (c, a) {
    const v = at(a, c.path);
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new CannotTell('no object at ' + JSON.stringify(c.path) + ' (status ' + a.status + ')');
    return Object.prototype.hasOwnProperty.call(v, c.property) ? null : 'no ' + c.property + ' at ' + JSON.stringify(c.path);
  },
  'null-at': function (c, a) {
    const j = parsed(a);
    if (!j.ok) return 'the body is not a JSON document';
    let v = j.value;
    for (const k of c.path) v = v === null || typeof v !== 'object' ? undefined : v[k];
    return v === null ? null : 'still ' + JSON.stringify(v) + ' at ' + JSON.stringify(c.path) + ', expected null';
  },
  'walk-once': function (c) {
    const w = walkOf(c.at);
    const ids = new Map();
    const tokens = new Set();
    for (let k = 0; k < w.pages.length; k++) {
      const page = w.pages[k];
      for (const r of page.data) {
        const id = r && r.id;
        if (typeof id !== 'string') continue;
        if (ids.has(id)) return 'page ' + (k + 1) + ' returned resource ' + id + ' again (first on page ' + ids.get(id) + ')';
        ids.set(id, k + 1);
      }
      const next = page.next_token;
      if (typeof next === 'string' && page.data.length > 0) {
        if (tokens.has(next)) return 'page ' + (k + 1) + ' gave a next_token that was already followed';
        tokens.add(next);
      }
    }
    whole(w);
    return null;
  },
  // An order over every page of the walk, as list.orders-ascending judges it: a pair out of order by every usual collation.
  'walk-ascending': function (c) {
    const w = walkOf(c.at);
    let previous;
    let compared = 0;
    for (let k = 0; k < w.pages.length; k++) {
      for (const r of w.pages[k].data) {
        const attributes = r && r.attributes && typeof r.attributes === 'object' ? r.attributes : {};
        const value = attributes[c.attribute];
        if (typeof value !== 'string') continue;
        if (previous !== undefined) {
          compared += 1;
          if (previous > value && previous.localeCompare(value, undefined, { sensitivity: 'base' }) > 0)
            return 'page ' + (k + 1) + ': resource ' + (r && r.id) + ' (' + JSON.stringify(value) + ') after ' + JSON.stringify(previous) + ', not in ascending order of ' + c.attribute;
        }
        previous = value;
      }
    }
    whole(w);
    if (compared === 0) throw new CannotTell('fewer than two resources carry ' + c.attribute + ': no order to judge');
    return null;
  },
  // One collection counted three ways: a walk, total_count (strict) and limit null; an ids filter's, one per id.
  'counts-agree': function (c, a) {
    const w = walkOf(c.walk);
    whole(w);
    const walked = w.pages.reduce(function (n, p) { return n + p.data.length; }, 0);
    const counted = parsed(a);
    const total = a.status === '200' && counted.ok && counted.value ? counted.value.total_count : undefined;
    if (typeof total !== 'number') throw new CannotTell('the strict count answered ' + a.status + ' with no total_count: nothing to compare');
    const all = answer(c.whole);
    const allRead = parsed(all);
    if (all.status !== '200' || !allRead.ok || !allRead.value || !Array.isArray(allRead.value.data)) throw new CannotTell('the limit null read answered ' + all.status + ' with no list of resources: nothing to compare');
    let expected = walked;
    if (c.ids) {
      const sample = answer(c.sample);
      const listed = sample.status === '200' && parsed(sample).ok ? idsIn(parsed(sample).value.data) : [];
      if (c.ids.some(function (id) { return listed.indexOf(id) < 0; })) throw new CannotTell('the sample no longer lists every id of the filter (the target holds other resources): nothing to count them against');
      expected = c.ids.length;
    } else if (walked === 0) throw new CannotTell('the collection has no resource to count');
    const seen = { walk: walked, total_count: total, 'limit null': allRead.value.data.length };
    const same = Object.keys(seen).every(function (k) { return seen[k] === expected; });
    return same ? null : 'counted ' + JSON.stringify(seen) + ', expected ' + expected + ' each way';
  },
  // A walk with filters: only resources that pass them, and once each that the reference read shows passing them.
  'walk-filtered': function (c) {
    const s = answer(c.sample);
    const read = parsed(s);
    if (s.status !== '200' || !read.ok || !read.value || !Array.isArray(read.value.data)) throw new CannotTell('the reference read answered ' + s.status + ' with no list of resources: nothing to compare');
    const textOf = function (r) {
      const attributes = r && r.attributes && typeof r.attributes === 'object' ? r.attributes : {};
      return c.text && typeof attributes[c.text.attribute] === 'string' ? attributes[c.text.attribute] : undefined;
    };
    const known = new Map();
    for (const r of read.value.data) if (r && typeof r.id === 'string') known.set(r.id, textOf(r));
    const w = walkOf(c.at);
    const listed = [];
    let unknown;
    for (let k = 0; k < w.pages.length; k++) {
      for (const r of w.pages[k].data) {
        const id = r && r.id;
        if (c.ids && c.ids.indexOf(id) < 0) return 'page ' + (k + 1) + ' lists resource ' + id + ', outside the ids filter';
        if (c.text) {
          const text = textOf(r) !== undefined ? textOf(r) : known.get(id);
          if (text === undefined) unknown = id;
          else if (!text.toLowerCase().startsWith(c.text.prefix.toLowerCase())) return 'page ' + (k + 1) + ' lists resource ' + id + ' whose ' + c.text.attribute + ' ' + JSON.stringify(text) + ' does not start with ' + JSON.stringify(c.text.prefix);
        }
        listed.push(id);
      }
    }
    whole(w);
    if (unknown !== undefined) throw new CannotTell('resource ' + unknown + ' is not in the reference read: its ' + c.text.attribute + ' cannot be judged');
    for (const [id, text] of known) {
      const owed = (!c.ids || c.ids.indexOf(id) >= 0) && (!c.text || (text !== undefined && text.startsWith(c.text.prefix)));
      const times = listed.filter(function (l) { return l === id; }).length;
      if (owed && times !== 1) return 'resource ' + id + ' passes every filter and is listed ' + times + ' times, expected once';
    }
    return null;
  },
  // Walks of one query at two page sizes: each lists once every resource the limit null read lists, in the same order.
  'walks-agree': function (c, a) {
    const read = parsed(a);
    if (a.status !== '200' || !read.ok || !read.value || !Array.isArray(read.value.data)) throw new CannotTell('the limit null read answered ' + a.status + ' with no list of resources: nothing to compare');
    if (typeof read.value.next_token === 'string') throw new CannotTell('the limit null read did not list the whole set in one answer: nothing to compare');
    const want = idsIn(read.value.data).slice().sort();
    const orders = [];
    for (const n of c.walks) {
      const w = walkOf(n);
      const got = [];
      for (const p of w.pages) for (const id of idsIn(p.data)) {
        if (got.indexOf(id) >= 0) return 'the walk from request ' + n + ' lists resource ' + id + ' twice';
        got.push(id);
      }
      whole(w);
      if (!same(got.slice().sort(), want)) return 'the walk from request ' + n + ' lists ' + JSON.stringify(got.slice().sort()) + ', the limit null read ' + JSON.stringify(want);
      orders.push(got);
    }
    const first = orders[0] || [];
    const at = first.findIndex(function (id, i) { return orders.some(function (o) { return o[i] !== id; }); });
    return at < 0 ? null : 'position ' + at + ' holds ' + JSON.stringify(orders.map(function (o) { return o[at]; })) + ' in the walks from requests ' + c.walks.join(', ') + ': not the same order';
  },
  'start-roles': function (c, a) {
    const shown = roleList(a, 'resources.list-roles');
    if (!same(shown, roleList({ status: '200', body: JSON.stringify(c.recorded) }, 'the run'))) {
      throw new CannotTell('the target shows other roles than the run started from (revocations cannot be undone): run this on a target in the state the run found');
    }
    return null;
  },
  accepted: function (c, a) {
    if (a.status.charAt(0) !== '2') throw new CannotTell('the change answered ' + a.status + ': what follows says nothing of its effect');
    return null;
  },
  // A write's effect, read right after it: a period over the assigned range with what was sent.
  'period-assigned': function (c, a) {
    const want = c.assigned;
    const range = span(want.date_range);
    const ok = list(a, 'resources.show-activity-rates').some(function (p) {
      const s = p && span(p.date_range);
      return !!s && !!range && s.start <= range.start && range.end <= s.end && typeof p.average_rate === 'number' &&
        (want.average_rate === undefined || Math.abs(p.average_rate - want.average_rate) <= 0.5) &&
        (want.trainee === undefined || p.trainee === want.trainee) &&
        (want.paid_hourly === undefined || p.paid_hourly === want.paid_hourly) &&
        (want.apprentice === undefined || p.apprentice === want.apprentice) &&
        (want.work_regime_id === undefined || want.work_regime_id === null || (p.work_regime && p.work_regime.id) === want.work_regime_id) &&
        weeksShown(p.activity_rate_patterns, want.activity_rate_patterns);
    });
    return ok ? null : 'no period over ' + want.date_range + ' with ' + JSON.stringify(want);
  },
  'spread-evenly': function (c, a) {
    const range = span(c.range);
    const period = list(a, 'resources.show-activity-rates').find(function (p) {
      const s = p && span(p.date_range);
      return !!s && !!range && s.start <= range.start && range.end <= s.end;
    });
    // No period over the range at all is a lost or stale assignment: another rule's departure, not this one.
    if (!period) throw new CannotTell('no period over ' + c.range + ': the spread cannot be judged');
    const days = period.work_regime && period.work_regime.weekly_worked_days;
    if (typeof days !== 'number' || !Array.isArray(period.activity_rate_patterns)) throw new CannotTell('the period shows no work regime days or no pattern');
    if (period.activity_rate_patterns.length === 0) return 'no week in the pattern the rate was spread into';
    const uneven = period.activity_rate_patterns.findIndex(function (w) {
      const worked = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map(function (d) { return w && w[d]; }).filter(function (x) { return typeof x === 'number' && x > 0; });
      return worked.length !== days || new Set(worked).size > 1;
    });
    return uneven < 0 ? null : 'week ' + uneven + ' ' + JSON.stringify(period.activity_rate_patterns[uneven]) + ' does not spread the rate evenly over ' + days + ' worked days';
  },
  'no-overlap': function (c, a) {
    const spans = list(a, 'resources.show-activity-rates').map(function (p) { return p && span(p.date_range); }).filter(Boolean);
    for (let i = 0; i < spans.length; i++) for (let k = i + 1; k < spans.length; k++) {
      if (spans[i].start < spans[k].end && spans[k].start < spans[i].end) return 'periods ' + spans[i].start + '/' + spans[i].end + ' and ' + spans[k].start + '/' + spans[k].end + ' overlap';
    }
    return null;
  },
  // A period sharing more than a boundary day with the range: needed before an unassignment (else exit 3), none after it.
  'period-inside': function (c, a) {
    if (a.status !== '200') throw new CannotTell('the read answered ' + a.status + ': no periods to judge');
    const inner = span(c.range);
    const inside = list(a, 'resources.show-activity-rates').filter(function (p) {
      const s = p && span(p.date_range);
      return !!s && !!inner && s.start < inner.end && inner.start < s.end;
    });
    if (!c.none && inside.length === 0) throw new CannotTell('no period inside ' + c.range + ' to unassign: the target is not in the state the FAIL started from');
    return c.none && inside.length > 0 ? inside.length + ' periods still inside ' + c.range + ', e.g. ' + inside[0].date_range : null;
  },
  'team-assigned': function (c, a) {
    const range = span(c.range);
    const ok = list(a, 'resources.show-teams').some(function (x) {
      const s = x && span(x.date_range);
      return !!s && !!range && x.team && x.team.id === c.teamId && x.head === c.head && s.start <= range.start && range.end <= s.end;
    });
    return ok ? null : 'no ' + (c.head ? 'head' : 'side') + ' assignation of team ' + c.teamId + ' over ' + c.range;
  },
  'team-absent': function (c, a) {
    const range = span(c.range);
    const shown = list(a, 'resources.show-teams').filter(function (x) {
      const s = x && span(x.date_range);
      return !!s && !!range && x.team && x.team.id === c.teamId && s.start < range.end && range.start < s.end;
    });
    return shown.length === 0 ? null : 'team ' + c.teamId + ' shown over ' + c.range + ' after a warning: ' + JSON.stringify(shown[0].date_range);
  },
  'team-text': function (c, a) {
    const range = span(c.range);
    const mine = list(a, 'resources.show-teams').filter(function (x) {
      const s = x && span(x.date_range);
      return !!s && !!range && x.team && x.team.id === c.teamId && s.start < range.end && range.start <= s.end;
    });
    if (mine.length === 0) throw new CannotTell('no assignation of team ' + c.teamId + ' over ' + c.range + ': its ' + c.field + ' cannot be judged');
    const other = mine.find(function (x) { return typeof x[c.field] === 'string' && x[c.field] !== c.value; });
    return other ? 'team ' + c.teamId + ' over ' + c.range + ' shows ' + c.field + ' ' + JSON.stringify(other[c.field]) + ', sent ' + JSON.stringify(c.value) : null;
  },
  warned: function (c, a) {
    const j = parsed(a);
    if (!j.ok || !j.value || typeof j.value !== 'object' || !('warning_type' in j.value)) throw new CannotTell('the assignment answered ' + a.status + ' with no warning: the target is not in the state the FAIL started from');
    return null;
  },
  'list-same': function (c, a) {
    const entries = function (b, what) {
      if (b.status !== '200') throw new CannotTell(what + ' answered ' + b.status + ': nothing to compare');
      return list(b, what).map(function (x) { return JSON.stringify(canonical(x)); }).sort();
    };
    const before = entries(answer(c.reference), 'request ' + c.reference);
    const now = entries(a, 'request ' + c.at);
    return same(now, before) ? null : 'the read after shows ' + JSON.stringify(now.filter(function (x) { return before.indexOf(x) < 0; }).slice(0, 2)) + ' where the read before showed ' + JSON.stringify(before.filter(function (x) { return now.indexOf(x) < 0; }).slice(0, 2));
  },
  // Unassignment rows: each row's read against the read before the rows, with the ranges of the rows up to it
  // unassigned; a departure only where the rows depart whichever way the server reads a range's end day.
  'unassign-rows': function (c) {
    const periods = function (n, what) {
      const b = answer(n);
      if (b.status !== '200') throw new CannotTell(what + ' answered ' + b.status + ': no periods to judge');
      return list(b, 'resources.show-activity-rates');
    };
    const before = periods(c.before, 'the read before the rows');
    const rows = c.rows.map(function (r, i) { return { range: span(r.range), after: periods(r.read, 'the read after row ' + (i + 1)) }; });
    const addDays = function (day, n) { const d = new Date(day + 'T00:00:00Z'); d.setUTCDate(d.getUTCDate() + n); return d.toISOString().slice(0, 10); };
    const departure = function (included) {
      const within = function (s, d) { return !!s && s.start <= d && (included ? d <= s.end : d < s.end); };
      const rateOn = function (ps, d) {
        const p = ps.find(function (q) { return q && within(span(q.date_range), d); });
        return p ? p.average_rate : null;
      };
      for (let i = 0; i < rows.length; i++) {
        const ranges = rows.slice(0, i + 1).map(function (r) { return r.range; });
        for (let d = addDays(rows[i].range.start, -c.around); d <= addDays(rows[i].range.end, c.around); d = addDays(d, 1)) {
          const named = ranges.some(function (s) { return within(s, d); });
          if (named && rateOn(rows[i].after, d) !== null) return 'after row ' + (i + 1) + ', a period over ' + d + ', which an unassignment covered';
          if (!named && rateOn(before, d) !== rateOn(rows[i].after, d)) return 'after row ' + (i + 1) + ', the rate on ' + d + ', which no unassignment named, is ' + rateOn(rows[i].after, d) + ' (was ' + rateOn(before, d) + ')';
        }
      }
      return null;
    };
    const included = departure(true);
    return included && departure(false) ? included : null;
  },
  'roles-not': function (c, a) {
    const shown = roleList(a, 'resources.list-roles');
    return same(shown, roleList({ status: '200', body: JSON.stringify(c.departing) }, 'the run')) ? 'the roles read after the revocations are still those the departing read showed' : null;
  },
  'roles-same': function (c, a) {
    const before = roleList(answer(c.reference), 'resources.list-roles');
    const shown = roleList(a, 'resources.list-roles');
    return same(shown, before) ? null : 'the roles read now are not those read ' + c.reference + ' showed: ' + JSON.stringify(shown) + ' against ' + JSON.stringify(before);
  },
  'role-teams': function (c, a) {
    const item = list(a, 'resources.list-roles').find(function (x) {
      return x && x.resource_id === c.resourceId && x.role_id === c.roleId && x.is_assigned === true;
    });
    const shown = !item ? null : item.team_ids === '*' ? '*' : Array.isArray(item.team_ids) ? item.team_ids.slice().sort() : item.team_ids;
    return same(shown, c.teams) ? null : 'role ' + c.roleId + ' on teams ' + JSON.stringify(shown) + ', expected ' + JSON.stringify(c.teams);
  },
  'rate-on-day': function (c, a) {
    const periods = list(a, 'resources.show-activity-rates');
    if (c.rate === null) {
      const covering = periods.filter(function (p) { return p && surelyCovers(p.date_range, c.day); });
      return covering.length === 0 ? null : 'a period over ' + c.day + ' (' + JSON.stringify(covering[0]) + '), expected none';
    }
    const ok = periods.some(function (p) { return p && mayCover(p.date_range, c.day) && Math.abs(p.average_rate - c.rate) <= 0.5; });
    return ok ? null : 'no period with rate ' + c.rate + ' over ' + c.day;
  },
  'team-on-days': function (c, a) {
    const shown = list(a, 'resources.show-teams');
    // With a regrouping: an assignation shown on the day carries it, or a redacted one (another rule's business).
    const missing = c.days.filter(function (d) {
      return !shown.some(function (x) {
        return x && x.team && x.team.id === c.teamId && x.head === c.head && mayCover(x.date_range, d) &&
          (c.regrouping === undefined || typeof x.regrouping !== 'string' || x.regrouping === c.regrouping);
      });
    });
    return missing.length === 0 ? null : 'team ' + c.teamId + ' not shown' + (c.regrouping === undefined ? '' : ' with regrouping ' + JSON.stringify(c.regrouping)) + ' on ' + missing.join(', ');
  },
};
let departs = 0;
let untold = 0;
for (const c of checks) {
  let why;
  try {
    why = judges[c.kind](c, answer(c.at));
  } catch (e) {
    if (e instanceof CannotTell) { untold += 1; console.log('CANNOT TELL: request ' + c.at + ': ' + e.message); continue; }
    if (!(e instanceof Departs)) { console.error('request ' + c.at + ': ' + e.message); process.exit(2); }
    why = e.message;
  }
  if (why) { departs += 1; console.log('DEPARTS: request ' + c.at + ': ' + why); }
  else console.log('conforms: request ' + c.at);
}
process.exit(untold > 0 ? 3 : departs > 0 ? 1 : 0);
`;

/**
 * The page that follows: a request body (argv[3]) with the \`next_token\` the
 * saved answer of request argv[2] gave put in its \`pagination\` (altered as
 * argv[4] says, when it is an alteration), printed.
 * A token is the server's own (opaque, signed by it): a recorded one says
 * nothing to another server, so each is taken from the live answer. An
 * answer that gives none cannot be followed as the run followed it: exit 3;
 * in a walk (argv[4] 'walk') it ends the walk: nothing is printed.
 */
export const FOLLOW_TOKEN = String.raw`'use strict';
const fs = require('fs');
const dir = process.argv[1];
const from = process.argv[2];
const body = JSON.parse(process.argv[3]);
let token;
try { token = JSON.parse(fs.readFileSync(dir + '/' + from + '.body', 'utf8')).next_token; } catch (e) { token = undefined; }
// A walk (argv[4] 'walk') ends where §4.9 rule 3 says, with nothing printed; a page the run followed must go on.
if (process.argv[4] === 'walk') {
  let data;
  try { data = JSON.parse(fs.readFileSync(dir + '/' + from + '.body', 'utf8')).data; } catch (e) { data = undefined; }
  if (typeof token !== 'string' || !Array.isArray(data) || data.length === 0) process.exit(0);
}
if (typeof token !== 'string') {
  // stderr: what it prints on stdout is the next request's body.
  console.error('CANNOT TELL: request ' + from + ' gave no next_token to follow, where the run was given one');
  process.exit(3);
}
// An alteration (argv[4], JSON): the live token altered as the run altered the one it was given, so it differs from it.
const mode = process.argv[4];
if (mode !== undefined && mode !== 'walk') {
  const alter = JSON.parse(mode);
  if (typeof alter.append === 'string') token = token + alter.append;
  else if (typeof alter.drop === 'number') {
    if (token.length <= alter.drop) { console.error('CANNOT TELL: the live next_token is too short to cut ' + alter.drop + ' characters from, as the run did'); process.exit(3); }
    token = token.slice(0, token.length - alter.drop);
  } else {
    if (alter.change >= token.length) { console.error('CANNOT TELL: the live next_token has no character ' + alter.change + ' to change, as the run did'); process.exit(3); }
    const c = token.charAt(alter.change) !== alter.to ? alter.to : token.charAt(alter.change) === 'A' ? 'B' : 'A';
    token = token.slice(0, alter.change) + c + token.slice(alter.change + 1);
  }
}
body.pagination.next_token = token;
process.stdout.write(JSON.stringify(body));
`;
