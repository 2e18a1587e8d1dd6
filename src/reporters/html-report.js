(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("toolscore-data").textContent);
  var summary = data.summary;

  function el(tag, className, children) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function svg(tag, attributes) {
    var node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    Object.keys(attributes).forEach(function (key) {
      node.setAttribute(key, String(attributes[key]));
    });
    return node;
  }
  function score(value) {
    return value === null || value === undefined ? "–" : value.toFixed(2);
  }
  function rate(value) {
    return value === null || value === undefined ? "–" : Math.round(value * 1000) / 10 + "%";
  }
  function json(value) {
    try {
      var text = JSON.stringify(value);
      return text === undefined ? String(value) : text;
    } catch {
      return String(value);
    }
  }
  function duration(ms) {
    return ms < 1000
      ? Math.round(ms) + " ms"
      : ms < 60000
        ? (ms / 1000).toFixed(1) + " s"
        : Math.floor(ms / 60000) + " min " + Math.round((ms % 60000) / 1000) + " s";
  }

  function card(value, label) {
    return el("div", "card", [el("div", "value", [String(value)]), el("div", "label", [label])]);
  }

  function histogram(counts, threshold) {
    var width = 300,
      height = 90,
      bottom = 14,
      most = Math.max.apply(null, counts.concat([1]));
    var chart = svg("svg", {
      viewBox: "0 0 " + width + " " + height,
      role: "img",
      "aria-label": "score histogram",
    });
    var step = width / counts.length;
    counts.forEach(function (count, index) {
      var h = Math.round((count / most) * (height - bottom - 12));
      var bar = svg("rect", {
        x: index * step + 2,
        y: height - bottom - h,
        width: step - 4,
        height: h,
        class: "bar",
      });
      var title = svg("title", {});
      title.textContent =
        (index / 10).toFixed(1) + "–" + ((index + 1) / 10).toFixed(1) + ": " + count;
      bar.appendChild(title);
      chart.appendChild(bar);
      if (count > 0) {
        var label = svg("text", {
          x: index * step + step / 2,
          y: height - bottom - h - 2,
          "text-anchor": "middle",
        });
        label.textContent = String(count);
        chart.appendChild(label);
      }
    });
    [0, 0.5, 1].forEach(function (tick) {
      var text = svg("text", {
        x: tick * width,
        y: height - 2,
        "text-anchor": tick === 0 ? "start" : tick === 1 ? "end" : "middle",
      });
      text.textContent = String(tick);
      chart.appendChild(text);
    });
    if (typeof threshold === "number") {
      // Where a case starts to pass: scores left of the line fail.
      var x = Math.min(width - 1, Math.max(1, threshold * width));
      var line = svg("line", { x1: x, x2: x, y1: 0, y2: height - bottom, class: "threshold" });
      var tip = svg("title", {});
      tip.textContent = "threshold " + threshold;
      line.appendChild(tip);
      chart.appendChild(line);
    }
    return chart;
  }
  /** A metric's threshold, as its first scored case gives it. */
  function thresholdOf(name) {
    for (var i = 0; i < data.records.length; i++) {
      var entry = data.records[i].metrics[name];
      if (entry && entry.status === "scored" && typeof entry.threshold === "number")
        return entry.threshold;
    }
    return undefined;
  }

  function renderSummary() {
    var root = document.getElementById("summary");
    var cards = el(
      "div",
      "cards",
      [
        card(summary.cases, "cases"),
        card(summary.passed, "passed"),
        card(summary.failed, "failed"),
        card(summary.errors, "errors"),
      ].concat(summary.notEvaluable > 0 ? [card(summary.notEvaluable, "not evaluable")] : [], [
        card(rate(summary.passRate), "pass rate"),
        card(duration(summary.durationMs), "duration"),
      ]),
    );
    if (summary.judge) {
      cards.appendChild(card(summary.judge.calls, "judge calls"));
      cards.appendChild(card(summary.judge.cacheHits, "cache hits"));
      cards.appendChild(
        card(
          summary.judge.estimatedCostUsd === undefined || summary.judge.estimatedCostUsd === null
            ? "?"
            : "$" + summary.judge.estimatedCostUsd.toFixed(4),
          "judge cost",
        ),
      );
    }
    root.appendChild(cards);
    if (summary.aborted)
      root.appendChild(el("div", "notice", ["The run was interrupted: not every case finished."]));
    var metrics = el("div", "metrics");
    summary.metrics.forEach(function (metric) {
      metrics.appendChild(
        el("section", "metric", [
          el("h3", "", [metric.name]),
          el("div", "figures", [
            "mean " +
              score(metric.mean) +
              " · pass rate " +
              rate(metric.passRate) +
              " · " +
              metric.failed +
              " failed · " +
              metric.errors +
              " errors · " +
              (metric.notEvaluable ? metric.notEvaluable + " not evaluable · " : "") +
              metric.skipped +
              " skipped",
          ]),
          histogram(metric.histogram, thresholdOf(metric.name)),
        ]),
      );
    });
    root.appendChild(metrics);
  }

  function safeImageSource(source) {
    if (!source) return null;
    var text =
      source.kind === "url"
        ? source.url
        : source.kind === "base64"
          ? "data:" + (source.mimeType || "image/png") + ";base64," + source.data
          : null;
    if (typeof text !== "string") return null;
    if (/^data:image\/(png|jpeg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/=\s]+$/.test(text))
      return text;
    return null;
  }
  function describeSource(source) {
    if (!source) return "";
    if (source.kind === "url")
      return source.url.length > 80 ? source.url.slice(0, 77) + "…" : source.url;
    if (source.kind === "path") return source.path;
    return "embedded " + (source.mimeType || "image");
  }
  function image(source, caption) {
    var src = safeImageSource(source);
    if (src === null && source && source.kind === "url" && /^https?:\/\//i.test(source.url)) {
      // Never loaded by the report: a link the reader may choose to follow.
      var link = el("a", "", [describeSource(source)]);
      link.href = source.url;
      link.rel = "noopener noreferrer";
      link.target = "_blank";
      return el("figure", "", [el("figcaption", "", [caption + " (not loaded): ", link])]);
    }
    if (src === null)
      return el("figure", "", [
        el("figcaption", "", ["(image not shown: " + describeSource(source) + ")"]),
      ]);
    var img = document.createElement("img");
    img.src = src;
    img.alt = caption;
    img.loading = "lazy";
    img.referrerPolicy = "no-referrer";
    return el("figure", "", [img, el("figcaption", "", [caption])]);
  }
  function content(value, label, images) {
    if (value === undefined || value === null) return null;
    if (typeof value === "string") return el("pre", "text", [value]);
    var texts = [];
    value.forEach(function (part) {
      if (part.type === "text") texts.push(part.text);
      else if (part.type === "image")
        images.push({ source: part.source, caption: label + " image" });
    });
    return texts.length === 0 ? null : el("pre", "text", [texts.join("\n")]);
  }

  function childPath(parent, key) {
    if (typeof key === "number") return parent + "[" + key + "]";
    return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
      ? parent + "." + key
      : parent + "[" + JSON.stringify(key) + "]";
  }
  function isMatcher(value) {
    return (
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      typeof value.$match === "string"
    );
  }
  /** A matcher as what it means ("any string"), when the report was given its description. */
  function matcherText(value) {
    return typeof value.description === "string" ? value.description : "matcher " + json(value);
  }
  function leaves(value, path, out) {
    if (isMatcher(value)) {
      out.push({ path: path, value: value });
      return out;
    }
    if (Array.isArray(value) && value.length > 0)
      value.forEach(function (item, index) {
        leaves(item, childPath(path, index), out);
      });
    else if (
      value &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      Object.keys(value).length > 0
    )
      Object.keys(value).forEach(function (key) {
        leaves(value[key], childPath(path, key), out);
      });
    else if (path !== "$") out.push({ path: path, value: value });
    return out;
  }
  function under(path, prefix) {
    return path === prefix || path.indexOf(prefix + ".") === 0 || path.indexOf(prefix + "[") === 0;
  }
  function callCell(call, badPaths, tags) {
    var cell = el("td", "");
    if (!call) {
      cell.appendChild(el("span", "empty", ["—"]));
      return cell;
    }
    var head = el("div", "", [el("span", "call-name", [call.name])]);
    tags.forEach(function (tag) {
      head.appendChild(el("span", "tag " + tag[0], [tag[1]]));
    });
    cell.appendChild(head);
    if (call.invalidArguments !== undefined)
      cell.appendChild(el("div", "arg bad", ["invalid arguments: " + call.invalidArguments]));
    if (isMatcher(call.arguments))
      cell.appendChild(
        el("div", "arg", [el("span", "matcher", ["arguments: " + matcherText(call.arguments)])]),
      );
    else
      leaves(call.arguments || {}, "$", []).forEach(function (leaf) {
        var bad = badPaths.some(function (p) {
          return under(leaf.path, p);
        });
        var shown = isMatcher(leaf.value)
          ? el("span", "matcher", [matcherText(leaf.value)])
          : json(leaf.value);
        cell.appendChild(
          el("div", bad ? "arg bad" : "arg", [
            el("span", "path", [leaf.path.slice(1) + " = "]),
            shown,
          ]),
        );
      });
    if (call.output !== undefined && call.output !== null)
      cell.appendChild(
        el("div", "arg", [
          el("span", "path", ["→ output"]),
          el("pre", "output", [outputText(call.output)]),
        ]),
      );
    return cell;
  }
  /** A tool's output: JSON (also JSON sent as text) laid out, other text as it is. */
  function outputText(output) {
    var value = output;
    if (typeof output === "string") {
      try {
        var parsed = JSON.parse(output);
        if (parsed !== null && typeof parsed === "object") value = parsed;
      } catch {
        /* text */
      }
    }
    var text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
    return text.length > 4000 ? text.slice(0, 4000) + "…" : text;
  }
  /** The calls made in the order they were made, each with what became of it. */
  function callOrder(called, details) {
    var fate = {};
    details.pairs.forEach(function (pair) {
      fate[pair.calledIndex] =
        pair.score >= 1
          ? "= expected[" + pair.expectedIndex + "]"
          : "~ expected[" + pair.expectedIndex + "], score " + score(pair.score);
    });
    details.outOfOrder.forEach(function (item) {
      if (item.calledIndex !== undefined)
        fate[item.calledIndex] = "out of order: expected[" + item.expectedIndex + "]";
    });
    details.missing.forEach(function (item) {
      if (item.nearest)
        fate[item.nearest.calledIndex] = "differs from expected[" + item.expectedIndex + "]";
    });
    details.unexpected.forEach(function (item) {
      fate[item.calledIndex] = item.allowed
        ? "besides the expected calls (the order allows it)"
        : "not expected";
    });
    return el(
      "ol",
      "call-order",
      called.map(function (call, index) {
        var item = el("li", "", [
          call.name +
            "(" +
            (isMatcher(call.arguments)
              ? matcherText(call.arguments)
              : json(call.arguments || {})
            ).slice(0, 160) +
            ")" +
            (fate[index] ? "  " + fate[index] : ""),
        ]);
        item.value = index;
        return item;
      }),
    );
  }
  function isMatchDetails(details) {
    return (
      details &&
      Array.isArray(details.pairs) &&
      Array.isArray(details.missing) &&
      Array.isArray(details.unexpected)
    );
  }
  function diffTable(record) {
    var testCase = record.case || {};
    var expected = testCase.expectedTools || [];
    var called = testCase.toolsCalled || [];
    var details = null,
      detailsOf = null;
    Object.keys(record.metrics).forEach(function (name) {
      var entry = record.metrics[name];
      if (details === null && entry.status === "scored" && isMatchDetails(entry.details)) {
        details = entry.details;
        detailsOf = name;
      }
    });
    if (expected.length === 0 && called.length === 0) return null;
    var table = el("table", "diff", [
      el("thead", "", [
        el("tr", "", [el("th", "", ["expected calls"]), el("th", "", ["calls made"])]),
      ]),
    ]);
    var body = el("tbody");
    table.appendChild(body);
    function row(kind, left, right) {
      var tr = el("tr", kind, [left, right]);
      left.className = "expected";
      right.className = "actual";
      body.appendChild(tr);
    }
    if (details === null) {
      for (var i = 0; i < Math.max(expected.length, called.length); i++)
        row("", callCell(expected[i], [], []), callCell(called[i], [], []));
      return el("div", "", [table]);
    }
    var pairs = {};
    details.pairs.forEach(function (pair) {
      pairs[pair.expectedIndex] = pair;
    });
    var order = {};
    details.outOfOrder.forEach(function (item) {
      order[item.expectedIndex] = true;
    });
    var missing = {};
    details.missing.forEach(function (item) {
      missing[item.expectedIndex] = item;
    });
    for (var e = 0; e < expected.length; e++) {
      var pair = pairs[e];
      if (pair) {
        var bad = pair.arguments
          .filter(function (v) {
            return v.verdict !== "match";
          })
          .map(function (v) {
            return v.path;
          });
        var perfect = pair.score >= 1 && bad.length === 0;
        var tags = perfect ? [] : [["partial", "score " + score(pair.score)]];
        row(
          perfect ? "matched" : "partial",
          callCell(expected[e], bad, tags),
          callCell(called[pair.calledIndex], bad, []),
        );
        if (bad.length > 0) {
          var list = el("ul", "mismatch-list");
          pair.arguments.forEach(function (v) {
            if (v.verdict === "match") return;
            var text =
              v.path +
              ": " +
              (v.verdict === "missing"
                ? "expected " + json(v.expected) + ", not passed"
                : v.verdict === "unexpected"
                  ? json(v.actual) + " passed, not expected"
                  : "expected " + json(v.expected) + ", got " + json(v.actual));
            list.appendChild(el("li", "", [text]));
          });
          var note = el("td", "");
          note.colSpan = 2;
          note.appendChild(list);
          body.appendChild(el("tr", "partial", [note]));
        }
      } else if (order[e]) {
        row(
          "out-of-order",
          callCell(expected[e], [], [["out-of-order", "out of order"]]),
          el("td", "", [el("span", "empty", ["made, but not in the expected order"])]),
        );
      } else if (missing[e] && missing[e].allowed) {
        row(
          "allowed",
          callCell(expected[e], [], [["allowed", "not made, allowed"]]),
          el("td", "", [el("span", "empty", ["not called (the order allows it)"])]),
        );
      } else {
        row(
          "missing",
          callCell(expected[e], [], [["missing", "missing"]]),
          el("td", "", [el("span", "empty", ["not called"])]),
        );
      }
    }
    details.unexpected.forEach(function (item) {
      if (item.allowed) {
        row(
          "allowed",
          el("td", "", [el("span", "empty", ["besides the expected calls (the order allows it)"])]),
          callCell(
            called[item.calledIndex] || { name: item.name },
            [],
            [["allowed", "extra, allowed"]],
          ),
        );
        return;
      }
      row(
        "unexpected",
        el("td", "", [el("span", "empty", ["not expected"])]),
        callCell(
          called[item.calledIndex] || { name: item.name },
          [],
          [["unexpected", "unexpected"]],
        ),
      );
    });
    return el("div", "", [
      el("div", "figures", ["alignment from " + detailsOf + " (" + details.algorithm + ")"]),
      table,
      el("h4", "", ["Calls made, in order"]),
      callOrder(called, details),
    ]);
  }

  /** A conversation's turns side by side: each turn's request, verdicts, calls and reply. */
  function conversation(record) {
    var turns = (record.case || {}).turns || [];
    var grid = el("div", "turns");
    turns.forEach(function (turn, at) {
      var metrics = {};
      var misplaced = [];
      var verdicts = Object.keys(record.metrics).map(function (name) {
        var entry = record.metrics[name];
        var outcome =
          entry.details && Array.isArray(entry.details.turns) ? entry.details.turns[at] : null;
        (entry.details && entry.details.misplaced ? entry.details.misplaced : []).forEach(
          function (call) {
            if (call.madeAt === at + 1)
              misplaced.push(call.name + " made here, expected at turn " + call.expectedAt);
            if (call.expectedAt === at + 1)
              misplaced.push(call.name + " expected here, made at turn " + call.madeAt);
          },
        );
        if (!outcome) return null;
        metrics[name] = outcome;
        var kind = outcome.status === "scored" ? (outcome.success ? "" : "fail") : outcome.status;
        return el("p", "reason turn-verdict", [
          el("span", "chip " + kind, [
            name + " " + (outcome.status === "scored" ? score(outcome.score) : outcome.status),
          ]),
          " ",
          outcome.reason || (outcome.error && outcome.error.message) || "",
        ]);
      });
      var failed = Object.keys(metrics).some(function (name) {
        var outcome = metrics[name];
        return outcome.status === "error" || (outcome.status === "scored" && !outcome.success);
      });
      var column = el("section", "turn" + (failed ? " failed" : ""), [
        el("h4", "", ["Turn " + (at + 1)]),
      ]);
      column.dataset.turn = String(at + 1);
      var images = [];
      var said = content(turn.input, "input", images);
      if (said) column.appendChild(el("div", "turn-input", [el("b", "", ["User: "]), said]));
      verdicts.forEach(function (node) {
        if (node) column.appendChild(node);
      });
      misplaced.forEach(function (text) {
        column.appendChild(el("p", "misplaced", [text]));
      });
      var diff = diffTable({ case: turn, metrics: metrics });
      column.appendChild(diff || el("p", "empty", ["no calls expected, none made"]));
      var reply = content(turn.actualOutput, "answer", images);
      if (reply) column.appendChild(el("div", "turn-reply", [el("b", "", ["Agent: "]), reply]));
      else if (typeof turn.finalReply === "string")
        column.appendChild(
          el("div", "turn-reply", [el("b", "", ["Agent: "]), el("pre", "text", [turn.finalReply])]),
        );
      grid.appendChild(column);
    });
    return grid;
  }

  function caseBody(record) {
    var body = el("div", "body");
    var testCase = record.case || {};
    var images = [];
    if (record.error)
      body.appendChild(el("p", "error-text", [record.error.code + ": " + record.error.message]));
    // A conversation's requests and replies are shown turn by turn, below.
    var turned = Array.isArray(testCase.turns) && testCase.turns.length > 0;
    var input = turned ? null : content(testCase.input, "input", images);
    if (input) {
      body.appendChild(el("h4", "", ["Input"]));
      body.appendChild(input);
    }
    var output = turned ? null : content(testCase.actualOutput, "answer", images);
    if (output) {
      body.appendChild(el("h4", "", ["Answer"]));
      body.appendChild(output);
    } else if (!turned && typeof testCase.finalReply === "string") {
      body.appendChild(el("h4", "", ["Final reply"]));
      body.appendChild(el("pre", "text final-reply", [testCase.finalReply]));
    }
    Object.keys(record.metrics).forEach(function (name) {
      var entry = record.metrics[name];
      var text =
        entry.status === "scored"
          ? score(entry.score) +
            " (threshold " +
            entry.threshold +
            ")" +
            (entry.reason ? ": " + entry.reason : "")
          : entry.status === "error"
            ? entry.error.code + ": " + entry.error.message
            : entry.status === "not-evaluable"
              ? "not evaluable: " + entry.reason
              : "skipped: " + entry.reason;
      body.appendChild(
        el("p", entry.status === "error" ? "reason error-text" : "reason", [
          el("b", "", [name + ": "]),
          text,
        ]),
      );
    });
    if (turned) {
      body.appendChild(el("h4", "", ["Conversation, turn by turn"]));
      body.appendChild(conversation(record));
    }
    var diff = turned ? null : diffTable(record);
    if (diff) {
      body.appendChild(el("h4", "", ["Tool calls"]));
      body.appendChild(diff);
    }
    (testCase.retrievedContexts || []).forEach(function (context, index) {
      if (typeof context === "string") {
        if (/^(data:image\/|https?:\/\/.*\.(png|jpe?g|gif|webp)(\?.*)?$)/i.test(context))
          images.push({
            source: /^data:/.test(context)
              ? {
                  kind: "base64",
                  data: context.replace(/^data:[^,]*,/, ""),
                  mimeType: context.slice(5, context.indexOf(";")),
                }
              : { kind: "url", url: context },
            caption: "context " + (index + 1),
          });
        else {
          body.appendChild(el("h4", "", ["Context " + (index + 1)]));
          body.appendChild(el("pre", "text", [context]));
        }
      } else images.push({ source: context, caption: "context " + (index + 1) });
    });
    if (images.length > 0) {
      body.appendChild(el("h4", "", ["Images"]));
      body.appendChild(
        el(
          "div",
          "images",
          images.map(function (item) {
            return image(item.source, item.caption);
          }),
        ),
      );
    }
    return body;
  }

  /** What went wrong first in a case, for its collapsed row: the first failing reason's first item. */
  function firstDifference(record) {
    if (record.error) return record.error.message;
    var names = Object.keys(record.metrics);
    for (var i = 0; i < names.length; i++) {
      var entry = record.metrics[names[i]];
      if (entry.status === "error") return names[i] + ": " + entry.error.message;
      if (entry.status === "scored" && !entry.success && entry.reason)
        return entry.reason.split("\n")[0].split(/; |\. (?=\d+ of \d+ expected)/)[0];
      if (entry.status === "not-evaluable") return names[i] + " not evaluable: " + entry.reason;
    }
    return "";
  }
  var searchText = [];
  function caseElement(record, index) {
    var details = el("details", "case");
    details.dataset.status = record.status;
    details.dataset.index = String(index);
    var chips = Object.keys(record.metrics).map(function (name) {
      var entry = record.metrics[name];
      var kind = entry.status === "scored" ? (entry.success ? "" : "fail") : entry.status;
      return el("span", "chip " + kind, [
        name + " " + (entry.status === "scored" ? score(entry.score) : entry.status),
      ]);
    });
    var first = firstDifference(record);
    details.appendChild(
      el(
        "summary",
        "",
        [
          el("span", "badge " + record.status, [record.status]),
          el("span", "case-id", [record.id]),
          record.line ? el("span", "chip", ["line " + record.line]) : null,
        ].concat(chips, first ? [el("span", "first-diff", [first])] : []),
      ),
    );
    var built = false;
    details.addEventListener("toggle", function () {
      if (details.open && !built) {
        built = true;
        details.appendChild(caseBody(record));
      }
    });
    var testCase = record.case || {};
    var names = (testCase.toolsCalled || [])
      .concat(testCase.expectedTools || [])
      .concat(
        (testCase.turns || []).reduce(function (all, turn) {
          return all.concat(turn.expectedTools || []);
        }, []),
      )
      .map(function (call) {
        return call.name;
      });
    var reasons = Object.keys(record.metrics).map(function (name) {
      var entry = record.metrics[name];
      return entry.reason || (entry.error && entry.error.message) || "";
    });
    searchText[index] = [record.id]
      .concat(
        names,
        reasons,
        record.error ? [record.error.message] : [],
        typeof testCase.input === "string" ? [testCase.input] : [],
      )
      .join("\n")
      .toLowerCase();
    return details;
  }

  function renderCases() {
    var list = document.getElementById("cases");
    var text = document.getElementById("filter-text");
    var status = document.getElementById("filter-status");
    var metric = document.getElementById("filter-metric");
    var count = document.getElementById("filter-count");
    data.metrics.forEach(function (name) {
      var option = document.createElement("option");
      option.value = name;
      option.textContent = "failing " + name;
      metric.appendChild(option);
    });
    var elements = data.records.map(caseElement);
    // Failures and errors first, each in dataset order, as a capped report chooses them.
    var rank = { error: 0, failed: 0, "not-evaluable": 0 };
    var failuresFirst = data.records
      .map(function (_, index) {
        return index;
      })
      .sort(function (a, b) {
        var ra = rank[data.records[a].status] === undefined ? 2 : rank[data.records[a].status];
        var rb = rank[data.records[b].status] === undefined ? 2 : rank[data.records[b].status];
        return ra - rb || a - b;
      });
    var order = document.getElementById("filter-order");
    function arrange() {
      var fragment = document.createDocumentFragment();
      (order.value === "dataset"
        ? data.records.map(function (_, index) {
            return index;
          })
        : failuresFirst
      ).forEach(function (index) {
        fragment.appendChild(elements[index]);
      });
      list.appendChild(fragment);
    }
    arrange();
    order.addEventListener("change", arrange);
    if (data.records.length === 0) list.appendChild(el("p", "empty", ["No cases."]));
    if (data.shown < data.total) {
      document
        .getElementById("truncated")
        .appendChild(
          el("div", "notice", [
            "This report shows " +
              data.shown +
              " of " +
              data.total +
              " cases (failures and errors first); the results file has them all.",
          ]),
        );
    }
    function apply() {
      var needle = text.value.trim().toLowerCase();
      var wanted = status.value;
      var failing = metric.value;
      var visible = 0;
      data.records.forEach(function (record, index) {
        var entry = failing ? record.metrics[failing] : null;
        var show =
          (wanted === "all" || record.status === wanted) &&
          (!needle || searchText[index].indexOf(needle) !== -1) &&
          (!failing ||
            (entry &&
              (entry.status === "error" ||
                entry.status === "not-evaluable" ||
                (entry.status === "scored" && !entry.success))));
        elements[index].hidden = !show;
        if (show) visible++;
      });
      count.textContent = visible + " of " + data.records.length + " cases";
    }
    text.addEventListener("input", apply);
    status.addEventListener("change", apply);
    metric.addEventListener("change", apply);
    apply();
  }

  renderSummary();
  renderCases();
  document.body.dataset.ready = "true";
})();
