// Package exports writes Arbiter releases: adjudicated ground truth streamed
// from the caller into the formats benchmarks ship in, with a manifest, a
// Hugging Face dataset card and the agreement figures.
//
// The package is pure: it imports tasks and agreement, does no I/O of its own
// and knows nothing of databases, HTTP or blob stores. Records arrive as an
// iter.Seq2[Record, error]; every file goes out through a Sink. A release of
// a million items runs in bounded memory: records are handled one at a time,
// never collected.
//
// # Driving a release
//
// The caller validates the request before starting any job, then streams:
//
//	spec, err := exports.ParseSpec(&schema, []string{"jsonl", "hf", "robojudge"},
//		map[string]any{"split_ratios": "train=0.8,test=0.2", "cluster_key": "source_clip"})
//	// err is a tasks.FieldErrors keyed "formats[i]" or "options.<key>"
//	rel := &exports.Release{Name: "v1", Schema: schema, Template: "robojudge",
//		Project: ..., Figures: ..., Card: ..., CreatedAt: now, ArbiterVersion: version,
//		Salt: projectSecret}
//	manifest, err := exports.Export(ctx, exports.Job{Release: rel, Spec: spec, Sink: sink,
//		Progress: func(n int64) { ... }}, records)
//
// Spec.CheckMeta runs the split checks on one item's metadata, so a missing
// split or cluster key can be reported before the job starts; Export reports
// the same as a *RecordError naming the item.
//
// # What Export does per record
//
//   - keeps the items matching the metadata filter, and of those the done
//     items (and dropped or unresolved ones with include_dropped), never an
//     item whose blind spot check disagreed with its imported ground truth
//     (Record.SpotCheck);
//   - counts every item it reads once in the release's Tally: left out by
//     the filter, left out by kind and reason, or released, and per format
//     what the format holds and leaves out;
//   - replaces every user id (labellers, reviewers, adjudicator) with a
//     pseudonym, "anon-" and 12 hex digits of HMAC-SHA256(salt, id): stable
//     for one salt, not reversible without it;
//   - re-encodes inputs and metadata canonically (sorted keys, compact);
//   - assigns the split: one named split (default "test"), a metadata key,
//     or ratios over SHA-256(seed, cluster key) so that items sharing a
//     cluster (RoboJudge's source clip) land in one split;
//   - checks the ground truth against the schema (through the tasks
//     package) and normalises it: binary answers become "requirement
//     satisfied" (true/false/null) with the question's polarity and N/A
//     mapping applied, likert N/A becomes null;
//   - computes per-item agreement from the labels when the caller gave none;
//   - hands the record to every format, each on its own goroutine, in
//     stream order.
//
// Then it writes agreement.json, README.md (the card) and manifest.json,
// which lists every other file with its size, SHA-256 and record count.
// The card's counts and the manifest's "records" are the one Tally, so
// they cannot disagree; the caller's release summary reads it too.
//
// # Formats
//
//   - jsonl: the canonical record, one per line, jsonl/<split>.jsonl.
//   - csv: one column per input and per question, csv/<split>.csv.
//   - hf: parquet with typed columns, data/<split>-00000-of-00001.parquet,
//     and the card's configs pointing at them.
//   - d3omni: the ["Yes", "No", ...] array in rubric order, total score,
//     seed/negative relation and the item's language, d3omni/<split>/<task>.jsonl;
//     hidden inputs (the generator) only with option hidden_inputs; seeds
//     that are not all-Yes are left out.
//   - omnireward: omnireward/<split>/<task>_preferences.json arrays;
//     option ties=false gives the "w/o Ties" variant.
//   - judgeanything: queries, responses, checklists and human judgments
//     (scores 1-5, choices 0/1/2, with the comment and every kept comment)
//     under judgeanything/<split>/.
//   - robojudge: per-item records, per-axis SFT and reward-only JSONL under
//     robojudge/<split>/; each record carries every assessment (the label
//     as its annotator gave it, each review with its correction) and the
//     expert's decision; under consensus the SFT reasoning comes from the
//     kept evidence of the labels (or their corrections) that gave the
//     agreed score, and rule-labelled records give no SFT reasoning.
//   - storybench: storybench/<split>/<track>/all_results.json, each
//     criterion as {"score", "rationale"}, a missing output marked
//     "missing"; summary.json with valid-only and zero-filled averages.
//
// Benchmark formats carry only items with ground truth. Every writer's doc
// comment gives its exact fields.
//
// # Free text and missing answers
//
// Record.Texts carries the free-text answers kept with the ground truth
// (every accepted label's evidence or rationale, the adjudicator's first),
// pseudonymised like every other person field; jsonl writes them under
// "texts". A ground-truth answer "missing" (tasks.AnswerMissing: the item
// lacked an input the question needs) is not decoded as an answer: it is
// listed in the entry's missing questions, which jsonl writes as "missing",
// csv as a "missing" cell, and storybench as a missing record.
//
// Record.Refinements carries the lists a person refined before labeling
// (Judge Anything's checklists): the drafted entries, each kept entry with
// its origin (drafted, reworded, added), the dropped ones and the refiner's
// pseudonym; jsonl writes them under "refinements", judgeanything beside
// the refined list in checklist.json.
//
// # Reproducibility
//
// The same records in the same order, with the same release header, spec
// and salt, give byte-identical data files: no timestamps in data files
// (only manifest.json carries the creation time the caller gives), sorted
// keys, encoding/json's float formatting, fixed parquet writer settings.
package exports
