// Generated from docs/openapi.yaml by scripts/api-types.mjs (npm run gen:api).
// Do not edit: change the document and regenerate; npm run check:api fails when
// this file is stale.
export interface paths {
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with email and password
         * @description Starts a new refresh-token family. Failed attempts are counted per account, per account
         *     and client address, and per address in the database (shared by every replica). An
         *     address with no recent failure on the account is never refused; one that has failed
         *     there waits a delay that doubles with the account's failures (after 5 free ones, from 1
         *     second to 15 minutes), and one with 100 failures is refused on the accounts it failed
         *     on. Until then the answer is `429 rate_limited` with `Retry-After`.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange the refresh cookie for a new access token and a new cookie
         * @description The refresh token comes from the `arbiter_refresh` cookie, never from the body (there
         *     is none). Rotation: the presented refresh token stops working. Presenting an already
         *     used refresh token revokes its whole family (every token descended from the same login)
         *     and answers `401 refresh_token_reused`. Against cross-site request forgery the request
         *     must carry `X-Arbiter-CSRF` (any value), and a browser's `Sec-Fetch-Site` and `Origin`,
         *     when present, must name this site; otherwise `403 csrf_rejected`.
         */
        post: operations["refresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the caller's session
         * @description Revokes the refresh-token family of the session the access token belongs to and clears
         *     the refresh cookie. For a personal access token it does nothing (revoke the token at
         *     `/api/v1/me/tokens/{tid}`).
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a one-time reset link
         * @description `token` is the secret of a link an administrator made (`POST
         *     /api/v1/users/{uid}/password-reset`). It works once, for 24 hours, and a newer link
         *     replaces it. A new password the rules refuse (`422`) leaves the link usable. Every
         *     session of the user ends. Audited as `user.password_reset`.
         */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the caller's password (sessions only)
         * @description Needs the current password; wrong ones count towards the login throttle. Every other
         *     session and access token of the caller ends at once; the answer is a new session for
         *     this one. Audited as `user.password_change`.
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The authenticated user */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the caller's own settings (sessions only)
         * @description A field left out keeps its value. `locale` is the language of the caller's interface;
         *     an empty string forgets the choice (the browser's language applies again).
         */
        patch: operations["updateMe"];
        trace?: never;
    };
    "/api/v1/me/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's personal access tokens that are not revoked */
        get: operations["listTokens"];
        put?: never;
        /**
         * Create a personal access token
         * @description The token (`arb_pat_...`) is in the answer once and stored only as a hash. It acts with
         *     its owner's rights, narrowed to its scopes. Sessions only: a token cannot make tokens.
         *     Audited as `token.create`.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/tokens/{tid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke one of the caller's personal access tokens (sessions only)
         * @description Audited as `token.revoke`.
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List every user (administrators only) */
        get: operations["listUsers"];
        put?: never;
        /** Create a user (administrators only) */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects the caller belongs to (every project for administrators) */
        get: operations["listProjects"];
        put?: never;
        /**
         * Create a project; the caller becomes its lead
         * @description The task schema comes from a built-in `template` (its schema and extra forms are copied
         *     into the project) or from an explicit `schema` with optional `forms`, never both; with
         *     neither the project starts without a schema (items cannot be imported or worked on until
         *     one is set with PATCH). The schema becomes version 1 (its `version` is at least 1). The
         *     `workflow` policy is optional: from a template that has a policy of its own (its
         *     paper's, the template's `workflow`: Omni-Reward's criteria stage with overlap 3, majority,
         *     no-consensus units dropped and authors labelling their own criteria's units) a project
         *     without one gets it, and a `workflow` given replaces it whole; unset fields get their
         *     defaults (see `WorkflowPolicy`), and it is checked against the schema and forms.
         *     Audited as `project.create`.
         */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schemas/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a project setup without creating anything
         * @description Takes the body of `POST /api/v1/projects` (the name may be left out) and applies the same
         *     rules: the template or schema, its forms and the workflow policy. A setup form calls it
         *     while the lead types, to show each problem at its path. Nothing is written.
         *
         *     A setup that breaks a rule is a verdict, not a failed request: the answer is 200 with
         *     `valid: false` and the problems, in field order, keyed by path exactly as the 422 of
         *     project creation would key them. A schema or forms value that does not fit the task
         *     schema's shape (an unknown key, a list where an object belongs) is such a problem too
         *     (`unknown_field`, `invalid_type`). A body that is not one JSON object with the fields
         *     below is still refused with 400.
         */
        post: operations["validateSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/storage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The bytes the project stores and its quota (leads) */
        get: operations["projectStorage"];
        /**
         * Set the project's storage quota (administrators)
         * @description `quota_bytes` null removes the limit (the default). Uploads and archive imports that would
         *     take the project over it are refused with `413 quota_exceeded`; releases count toward it as
         *     they write their files, and one that would pass it ends `failed` with its files removed (a
         *     release asked for once the quota is used up is refused with `413 quota_exceeded`).
         *     Audited as `project.quota`.
         */
        put: operations["setStorageQuota"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive or restore a project (leads)
         * @description An archived project keeps everything but leaves the project list (`GET /api/v1/projects?archived=true`
         *     lists it) and hands out no work (`queue/next` answers `409 archived`). Audited as
         *     `project.archive` or `project.restore`.
         */
        post: operations["archiveProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's schema versions and the work made with each (leads) */
        get: operations["listSchemaVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/stuck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Waiting work that no current member can be given (leads)
         * @description Per stage of the policy, the work that waits and that nobody among the members can ever
         *     be given (everyone with the stage's role has worked the item in another stage, or already
         *     did this work), with the reason and the first ids. Empty when nothing is stuck; adding a
         *     member with the role frees it. Work in a language that no member with the stage's role
         *     reads is listed apart, one entry per language with `language` set and a reason such as
         *     "needs an annotator who reads fr"; giving a member that language (`PUT .../members/{uid}`
         *     with `languages`) frees it. Work that someone holds (a live assignment in the stage, as
         *     `POST .../stuck/assign` makes) is not listed while they hold it.
         */
        get: operations["stuckWork"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/stuck/candidates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who may be given one piece of stuck work (leads)
         * @description The members, paused ones left out, to whom `POST .../stuck/assign` may give the named
         *     work: everyone the rules of who may work an item allow (never someone who worked the
         *     item in another stage, already did this work, made the label under review, or does not
         *     read its language), by email. `has_role: false` marks a member without the stage's
         *     role, whom the hand-off gives it with `grant_role: true`. Work that no longer waits is
         *     refused with `id`: `not_waiting`.
         */
        get: operations["stuckCandidates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/stuck/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give stuck work to a named person (leads)
         * @description Fixes one piece of stuck work from the list above. `id` is an item id, or for the
         *     `review` stage the id of the label waiting for a reviewer (the `ids` of `GET .../stuck`).
         *     `user` is a user id or an email address.
         *
         *     - A member who has the stage's role, or gets it with `grant_role: true` (added in the
         *       same transaction), is given the work: an assignment is held for them for a day (or
         *       the project's lease when longer), and their next `queue/next` in that stage resumes
         *       it. After that the slot is free for anyone again.
         *     - A person who is not a member is invited with the stage's role (`grant_role: true`
         *       required); the answer is `status: invited` without an assignment, and they claim the
         *       work from the queue once they join.
         *
         *     The independence rules hold as at every claim: someone who worked the item in another
         *     stage, already had this work, or made the label under review is refused
         *     (`user`: `not_independent`). Work that no longer waits (done meanwhile, flagged, slot
         *     taken) is refused with `id`: `not_waiting`.
         */
        post: operations["assignStuckWork"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/feasibility": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the members can do what the policy asks (leads)
         * @description Checked before any work, each shortfall a warning with the numbers: overlap N needs N
         *     annotators (`annotators`; N per pass when each pass of the form is its own queue);
         *     with a criteria stage whose `authors_label` is off, the author of a unit's criterion
         *     may not label it, so overlap N needs N+1 (`authors_label` when the project has exactly
         *     N); with a checklist stage, the person who refines an item's checklist does not label it,
         *     so overlap N needs N+1 (`checklist_refiner`); the criteria overlap needs that many
         *     annotators (`criteria_authors`); criteria
         *     need a lead or reviewer who did not write them (`criteria_reviewers`); cross review
         *     needs a reviewer who did not label the item nor write its criterion (`reviewers`);
         *     adjudication (always, on disagreement unless such items are dropped, or a disputed
         *     blind review) needs an adjudicator who did none of these (`adjudicators`); with
         *     `require_qualification`, N qualified annotators (`qualified`). Each check is made over
         *     every member, then over the readers of each language of the policy and of the items
         *     waiting for work (`language` set on a warning for that language only).
         */
        get: operations["projectFeasibility"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One project with its schema and workflow (any member) */
        get: operations["getProject"];
        put?: never;
        post?: never;
        /**
         * Delete a project and everything in it (leads)
         * @description The body must confirm with the project's exact name. Items, work, ground truth, imports
         *     and files go; the audit trail keeps a `project.delete` event.
         */
        delete: operations["deleteProject"];
        options?: never;
        head?: never;
        /**
         * Edit a project's name, description, schema or workflow (lead)
         * @description Every field is optional; absent fields keep their value. A `schema` whose content differs
         *     from the current one (by content hash) becomes a new schema version (`schema_version` + 1),
         *     together with `forms` (`forms` without `schema` is ignored). Annotations and open
         *     assignments keep the version they were made with. The workflow policy, given or kept, is
         *     checked (with defaults filled in) against the resulting schema and forms. Audited as
         *     `project.update`.
         */
        patch: operations["patchProject"];
        trace?: never;
    };
    "/api/v1/projects/{pid}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Item counts by stage and work per person (lead or viewer) */
        get: operations["getProjectStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through the project's items with their work and ground truth (lead)
         * @description Items in id order, `limit` per page. `next_cursor` is the last id of a full page (pass it
         *     as `cursor` for the next page; the next page may be empty) and `""` after a short page.
         *     Answers are in canonical order, with who gave them.
         */
        get: operations["listItems"];
        put?: never;
        /**
         * Import items from NDJSON (lead)
         * @description One `ItemLine` per line; blank lines are skipped. Lines are read as a stream and stored
         *     500 to a transaction (fewer once the lines add up to 2 MiB). Each line is checked on its
         *     own (unknown fields, a required `external_id`, the inputs against the schema of the first
         *     stage, uploaded assets of this project (`unknown_asset`) of the input's medium by their
         *     sniffed bytes (`wrong_media`: an HTML page or a picture is no `audio`), `ground_truth` answers against the schema, `language` as a BCP 47 tag and one of
         *     the project's `languages`): a bad line is reported in `errors` by its 1-based number (with
         *     `details` keyed by field, e.g. `language`) and nothing of it is written; the good lines are
         *     kept, so the answer is 200 even when lines failed.
         *
         *     An `external_id` already in the project is updated when its inputs or meta changed
         *     (refused for that line once anyone has worked on the item) and counted `unchanged`
         *     otherwise. New items enter the first stage (`criteria` when the policy has a
         *     `criteria_stage`; `checklist` when it has a `checklist_stage` and the item holds a list
         *     to refine; else `label`); an item imported with `ground_truth` goes straight to
         *     `done` with that ground truth, unless the `spot_check_rate` sample sends it to blind
         *     labeling. Audited as `items.import`.
         *
         *     With `pool=calibration` the lines become calibration pool items (stage `calibration`),
         *     which only calibration rounds use; a line's `ground_truth` is then the item's gold
         *     answer (`{"answers": {...}}`, questions may be left out, no `provenance`), kept for
         *     calibration reports and never ground truth. A pool import is synchronous (NDJSON, or
         *     multipart with a media archive); an external id cannot move between the pool and
         *     production. `GET …/items/sample` gives the format with example lines.
         *
         *     A key that names no field of a line refuses it as `unknown field "<path>"`, with
         *     `details.<path>` of code `unknown_field` (e.g. `pool`, `ground_truth.pa`); a line that is
         *     not JSON is `malformed JSON`.
         */
        post: operations["importItems"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/items/sample": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What an items import takes, with example lines made from the schema (lead)
         * @description The inputs a line's `inputs` are checked against (the first stage's form for production
         *     items, the labeling form for the calibration pool) with their type and whether they are
         *     optional or hidden from annotators, the declared `meta` keys, and example lines that
         *     import as they are. With `pool=calibration` each example line carries a gold answer to
         *     every question under `ground_truth.answers`.
         */
        get: operations["getItemSample"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/items/{iid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One item with all its work, ground-truth history, criteria and predictions (lead) */
        get: operations["getItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/items/{iid}/flag": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decide on a flagged item (lead)
         * @description Clears the item's flag. `return` puts the item back in its queue; `drop` moves it to
         *     `dropped`, with the flag (and the note) as the drop reason. Audited as `item.flag_resolved`.
         */
        post: operations["resolveItemFlag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/predictions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import model predictions from NDJSON (lead)
         * @description One `PredictionLine` per line, for items already imported (matched by `external_id`).
         *     Answers are validated question by question against the current schema; a prediction need
         *     not answer every question. A later line for the same item and model replaces the
         *     earlier prediction. Bad lines are reported by number and the good ones kept; `imported`
         *     counts stored predictions (`updated` and `unchanged` stay 0). With the policy's
         *     `draft_from_predictions`, new label assignments start from a draft made of them.
         */
        post: operations["importPredictions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's recent background imports, newest first (lead) */
        get: operations["listImports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/imports/{imid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Progress and report of one background import (lead)
         * @description Started by `POST /api/v1/projects/{pid}/items?async=true` (or `/predictions?async=true`),
         *     which stores the file and answers 202 with this object and a `Location` header. A worker
         *     on any replica imports it; poll until `status` is `done` (the `report` is then the same
         *     `ImportReport` a synchronous import returns) or `failed` (`error` says why).
         */
        get: operations["getImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/me/progress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's own progress per stage and the work left for them (any member) */
        get: operations["myProgress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/me/rejections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's own labels a reviewer rejected, with the reasons (any member)
         * @description The caller's labels in the project whose review rejected them, the latest review first
         *     (at most 50), with the reviewer's comment and their comments per question. Only the
         *     caller's own work is listed; the reviewer is never named, nothing of the item is
         *     included (its inputs may be blinded), and per-question comments are kept only for
         *     questions the label answered.
         */
        get: operations["myRejections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/criteria": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Criteria written in the criteria stage, oldest first (lead or reviewer) */
        get: operations["listCriteria"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/criteria/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Criteria per author and per status (leads)
         * @description How criteria authoring stands: every criterion counted by status, and per author (by
         *     email; authors who left the project are still listed). `items` is the number of items
         *     at least one author wrote for, `authorships` the submitted criteria assignments, and
         *     `overlap` the authors each item asks for (0 without a criteria stage).
         */
        get: operations["criteriaReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/criteria/{cid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark a pending criterion (lead or reviewer)
         * @description A `valid` criterion becomes a child item (the parent's inputs plus the criterion text in
         *     the policy's `criteria_stage.input`, external id `<parent>#criterion-<cid>`) that enters
         *     labeling. A `duplicate` repeats another criterion of the same item (`duplicate_of`,
         *     typically another author's) and makes no child item. Once every author of the item has
         *     written (`criteria_stage.overlap`) and every criterion is marked, the item moves to
         *     `split`, or to `dropped` when none was valid. Audited as `criterion.review`.
         */
        post: operations["reviewCriterion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/calibration-rounds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Calibration rounds with completion (a lead sees all; an annotator the rounds they take part in)
         * @description Newest first. An annotator who is not a lead sees only their own entry among the participants.
         */
        get: operations["listCalibrationRounds"];
        put?: never;
        /**
         * Start a calibration round over pool items (lead)
         * @description A round takes either the listed `external_ids` of calibration pool items or a random
         *     `sample` of the pool, and participants named by user id or email who must be annotators
         *     of the project. Rounds are numbered per project from 1; pool items may be reused across
         *     rounds. The pass rule is checked against the schema: `questions` must be questions with a
         *     level of measurement (ordinal ones for `exact_with_peers` and `within_one_with_peers`),
         *     and default to every question that applies; `accuracy_vs_gold` needs gold on every item
         *     of the round. Thresholds are 0 to 1 (`alpha_with_peers`: -1 to 1). Nothing is written
         *     unless everything is valid. Audited as `calibration_round.create`.
         */
        post: operations["createCalibrationRound"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/calibration-rounds/{rid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One calibration round with its items (lead) */
        get: operations["getCalibrationRound"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/calibration-rounds/{rid}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a calibration round (lead)
         * @description Freezes the round: open claims of it end, and any later draft or submit of its work answers
         *     `409 round_closed`. Participants who meet the pass rule (having labeled every item) pass:
         *     each pass is audited as `calibration_round.pass`, and qualifies the participant for
         *     production labeling (`member.qualify` when that changes their standing). Audited as
         *     `calibration_round.close`.
         */
        post: operations["closeCalibrationRound"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/calibration-rounds/{rid}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The round's report, with the trend over every round of the project up to it (lead)
         * @description Every figure comes from the `agreement` package. Units are (item, question), and for
         *     checklists (item, checklist item); binary answers are compared as given (`yes`, `no`,
         *     `na`). Ordinal figures (exact, within ±1, mean absolute difference) are RoboJudge's
         *     Table 5 figures: over every pair of ratings of a unit. Figures that are undefined for the
         *     data (no gold, no pair, a single category) and ordinal figures of nominal questions are
         *     `null`. Krippendorff's α has a 95 % percentile bootstrap interval (1000 replicates, fixed
         *     seed). An annotator's `score` is the pass metric averaged over the pass questions:
         *     `accuracy_vs_gold` the question's accuracy, the `*_with_peers` metrics the question's
         *     figure averaged over peers (`peers[*].exact`, `.within_one`, `.alpha`). `passed` needs
         *     every item labeled and a score at or above the threshold.
         */
        get: operations["getCalibrationReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/calibration-rounds/{rid}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Attach a feedback note to an (item, question) of a closed round (lead) */
        post: operations["addCalibrationNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/calibration-rounds/{rid}/mine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's own answers of a closed round beside the reference, with the lead's notes (participant)
         * @description For each item (in round order, by `position`; external ids stay hidden) and each question
         *     with a level of measurement: the caller's answer, the reference (the gold answer, or
         *     else the answer most participants gave, or `null` on a tie) and whether they agree. Peers'
         *     answers are never shown. Not a participant of the round: 404; the round still open: 409
         *     `round_open`.
         */
        get: operations["getMyCalibrationResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/queue/next": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Claim the next piece of work in a stage (any member with the stage's role)
         * @description Hands back the caller's open assignment in the stage first (renewing its lease), so a
         *     reload loses nothing; otherwise claims an item (or, for `review`, a submitted label of
         *     someone else) that still has a free slot and that the caller has not worked on in this
         *     stage. The lease lasts `lease_minutes`. The `item` is the blinded view for the stage's
         *     role: hidden inputs, item meta, external ids and candidate ids are removed and candidates
         *     are shown in a per-assignment order. `draft` is in that shown order.
         *
         *     Stages and roles: `label`, `criteria` and `checklist` need `annotator`, `review` needs
         *     `reviewer` (only with `review: cross`), `adjudicate` needs `adjudicator`; `criteria`
         *     exists only with a `criteria_stage`, `checklist` only with a `checklist_stage` (its
         *     form is the policy's checklist form).
         *
         *     `calibration` (needs `annotator`) hands out the items of the open calibration rounds the
         *     caller takes part in, each once per round, with the same form, drafts and submit as
         *     `label`; the view shows neither gold nor other participants' answers, and no draft is
         *     prefilled from predictions. With the policy's `require_qualification`, `label` answers
         *     `403 not_qualified` until the caller is qualified.
         *
         *     With `prefetch: true` the answer is the piece of work after the caller's current one,
         *     claimed if needed, so a client can load the next item while the current one is being
         *     answered and show it the moment the current one is submitted. Nobody holds more than
         *     two open assignments per stage; a plain call still returns the oldest.
         */
        post: operations["queueNext"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/quality": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each annotator's quality figures and flags (lead)
         * @description Per annotator who submitted labels in the project: production labels (gold and
         *     calibration work left out), time per label, rushed share (under the policy's
         *     `rushed_seconds`), agreement with peers on the items they share and with the final ground
         *     truth (pooled over the questions with a level of measurement, binary answers after
         *     polarity and N/A mapping, from `agreement` pairwise tables), gold accuracy (over all gold
         *     answers, and over the sliding window the flag is judged on), the Yes share per binary
         *     question, and agreement with model drafts with the share of drafted labels submitted
         *     unchanged. A figure with nothing to compute it from is `null`.
         *
         *     `reliability` is each annotator's estimated accuracy under a Dawid–Skene model of the
         *     project's labels, fitted per question with categories (every question with a level of
         *     measurement except multi-choice sets; checklist entries and ranked options are units of
         *     their own): a confusion matrix per annotator and a class prior, by EM from the
         *     majority-vote start, with gold items pinned to their gold answers. An annotator's
         *     accuracy is the expected share of their answers that equal the true value (the
         *     posterior mass of the value they gave), with a 95 % Wilson interval; `questions` has it
         *     per question, the top level pools the answers of every question. The fit is crowd-kit's
         *     `DawidSkene` (equal to it to 1e-10 on simulated raters).
         *
         *     Flags: `low_gold_accuracy` (window accuracy below `gold_min_accuracy`, once 5 answers or
         *     the whole window are in), `rushed` (more than 20 % of at least 10 labels rushed),
         *     `rubber_stamping` (one binary question answered Yes in more than 95 % of at least 20
         *     labels), `anchoring` (at least 10 drafted labels, more than 90 % submitted unchanged),
         *     `low_reliability` (at least 20 modelled answers and the whole reliability interval below
         *     `reliability_min_accuracy`).
         */
        get: operations["projectQuality"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/agreement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inter-annotator agreement per question (lead, viewer)
         * @description Agreement of the project's production labels (accepted labels: a reviewer's correction in
         *     place of the label, rejected ones left out; gold and calibration work left out), per
         *     question with a level of measurement, at the level the schema gives it: binary, choice,
         *     multi choice (sets, MASI distance for alpha) and pairwise (canonical order) nominal;
         *     Likert, ranking (options as units) and checklist (sub-items as units) ordinal. Binary
         *     answers are compared as "requirement satisfied or not" after polarity and N/A mapping,
         *     and `raw` gives the figures of the raw Yes/No/N-A answers. Krippendorff's alpha has a
         *     95 % percentile bootstrap interval (1000 replicates over units, fixed seed); nominal
         *     questions have Fleiss' kappa and Gwet's AC1, ordinal ones the pairwise exact, within ±1
         *     and mean absolute difference figures. `macro` averages the questions shown (undefined
         *     figures left out). The matrix is each pair's share of agreeing ratings over the shown
         *     questions' units both rated (`null` when they share none, and on the diagonal).
         *
         *     Figures are computed by a background job and kept per project; the key is the schema
         *     version and the time of the newest label or review submit. When the kept figures are
         *     older than that (or missing), the answer is the kept figures (or none) with `status:
         *     computing`, and the job is queued.
         */
        get: operations["projectAgreement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Balance and readiness of the ground truth (lead, viewer)
         * @description The balance of the newest ground truth of the project's done items (gold and the
         *     calibration pool left out), D3-Omni's construction loop. Binary questions: Yes
         *     (requirement satisfied) and No counts after polarity and N/A mapping (`open`: N/A answers
         *     the mapping leaves open), the No/Yes ratio, the histogram of total scores (satisfied
         *     binary questions per item, 0 to D) with its spread (largest bin minus smallest), and
         *     Pearson's r between every pair of binary questions over the items that resolve both
         *     (`flagged` when |r| > 0.6). Other questions: the count of each value (checklist
         *     sub-items as `key/item`; pairwise A/B/tie). Every metadata key: the count of each value
         *     (`truncated` beyond 100 values).
         *
         *     With the project's targets (`balance` in PATCH): each dimension says whether its ratio
         *     exceeds the target and how many more No items would make it; each bin how many more items
         *     would bring the spread under the target. `ready` holds only when both targets are set
         *     and met: every ratio above ρ and the spread under δ.
         *
         *     Computed by a background job and kept per project, keyed by the schema version and the
         *     newest item change, prediction, submit and criterion; older figures are answered with
         *     `status: computing` while the job refreshes them.
         */
        get: operations["projectBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Dataset statistics and loss accounting (lead, viewer)
         * @description Items per stage and per ground-truth provenance, dropped items by reason and their share,
         *     criteria written / pending / valid / too vague / too specific with the share refused,
         *     labels per item, review verdicts, per question the decided items whose labels disagreed
         *     on it and how many of them were adjudicated (rate over decided items), the median seconds
         *     per label overall and per annotator, and the ground truth's value counts per question.
         *     Review verdicts and drop reasons are counted as the release's dataset card counts them.
         *     Computed by a background job and kept, as the balance is.
         */
        get: operations["projectReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/judges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Judge leaderboard against the ground truth (lead, viewer)
         * @description Every model's imported predictions scored against the newest ground truth of the done
         *     items, per question group: all binary questions together (answer vectors: exact match is
         *     D3-Omni's perfect-match rate, per-total-score accuracy, total-score deviation), then each
         *     binary, Likert (score) and pairwise question on its own. `report` is the judge report of
         *     `arbiter judge-eval` (records: unit = external id, question = key, value = yes/no after
         *     polarity and N/A mapping, the Likert number, or A/B/tie; in unit then key order) with
         *     `--intervals 1000 --bootstrap 1000 --seed 20260311 --elo-k 32`: its `ci95` holds the 95 %
         *     percentile intervals of the headline figures over clusters within strata, and
         *     `difference` the paired bootstrap of the model minus the group's best (by accuracy, or
         *     Pearson's r for scores). Pairwise Elo players are the items' `model_a` and `model_b`
         *     metadata. With `system_key`, score groups correlate each system's mean judge score with
         *     its mean human score (and Pearson's r leaving each system out). A model with no
         *     prediction on a group's ground truth gets a row without a report and with the reason.
         *     Computed by a background job and kept per set of options, as the balance is.
         */
        get: operations["projectJudges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members of a project with their roles (any member) */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/members/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a person's roles in the project, or invite them (lead)
         * @description `paused` pauses a member or lifts a pause (gold accuracy, `gold_pause`).
         *     A member's roles are replaced at once (an empty list removes the member; the project's
         *     last lead cannot step down: `409 last_lead`), and a member who loses a role gives back
         *     their open work of that role's stage. An administrator adds anyone at once. A lead who is
         *     not an administrator invites people who are not members yet, by email: the answer is
         *     `status: invited` whether or not the email has an account, and the person joins when they
         *     accept (`POST /api/v1/me/invitations/{iid}/accept`). An empty list withdraws an
         *     invitation. Audited as `member.set`, `member.invite` or `member.uninvite`.
         *
         *     `qualified: true|false` grants or revokes a member's qualification for production
         *     labeling (see the policy's `require_qualification`), audited as `member.qualify` or
         *     `member.disqualify`; it needs a person who is a member (after the roles of the same
         *     request, if any). Give `roles`, `qualified` or both.
         *
         *     `languages` replaces the BCP 47 tags of the languages the member reads (stored canonical,
         *     sorted; a bad tag is `422` at `languages[i]`), audited as `member.languages`. The queue
         *     then gives the member only items in those languages (a tag covers more specific ones: `zh`
         *     reads `zh-Hans`) and items without a language; an empty list, the default, means every
         *     language. Languages belong to the membership, so each project's lead sets them for their
         *     project. Members only.
         */
        put: operations["setMember"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's open invitations (lead) */
        get: operations["listInvitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The invitations waiting for the caller */
        get: operations["myInvitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/invitations/{iid}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join the project with the invited roles (added to any the caller has) */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/invitations/{iid}/decline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decline an invitation */
        post: operations["declineInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{uid}/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Grant or withdraw a user's permissions (administrators)
         * @description Creating projects is an administrator-granted permission, off for new users. Audited as `user.permissions`.
         */
        put: operations["setPermissions"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{uid}/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a one-time password reset link for a user (administrators)
         * @description The administrator hands the link to the user, who sets a new password with it (`POST
         *     /api/v1/auth/password-reset`, or the web UI at `path`). The token is shown only here,
         *     works once, for 24 hours, and replaces any older link of the user; the current password
         *     keeps working until the link is used. Audited as `user.password_reset_issue`.
         */
        post: operations["issuePasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{uid}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable an account (administrators)
         * @description The user can no longer log in; every session, access token and personal access token of
         *     theirs stops at once, and re-enabling gives none of them back. Administrators cannot
         *     disable themselves (`409 own_account`), so the last administrator stays. Audited as
         *     `user.disable`.
         */
        post: operations["disableUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{uid}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-enable an account (administrators)
         * @description The user can log in again. Audited as `user.enable`.
         */
        post: operations["enableUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a media file to the project (lead)
         * @description The `file` part is streamed into the blob store while its sha256 and size are computed;
         *     nothing is recorded unless the upload completes. The content type is sniffed from the
         *     bytes (then the file extension); active content (HTML, SVG, XML, script) is stored as `application/octet-stream` and served as an attachment.
         */
        post: operations["uploadAsset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's audit events, newest first (lead) */
        get: operations["listAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's releases, newest first (lead, viewer) */
        get: operations["listReleases"];
        put?: never;
        /**
         * Start a release of the project's ground truth (lead)
         * @description Checks the request, then queues a background job that any replica may run, and answers
         *     202 with the queued release and its `Location`. Poll `GET .../releases/{rid}` for
         *     `progress` until `status` is `done` (the manifest and files are then available) or
         *     `failed` (`error` says why; no file is listed; start a new release to retry).
         *
         *     Everything that can be known before the job runs is a `422 validation_failed` naming
         *     the field: `name` (required, at most 100 characters), `formats` / `formats[i]`
         *     (`unknown_format`, `format_not_applicable`, `duplicate_key`), `options.<key>`
         *     (`unknown_option`, `option_not_applicable`, `invalid_value`, `conflicting_options`),
         *     `options.split_key` / `options.cluster_key` (`missing_split_key`, `invalid_split`: the
         *     key is missing or not a split name on some items that would be released; the message
         *     counts them and names the first), `options.filter...` (`no_match`: the metadata filter
         *     keeps no item), `options.media` (`no_public_url`: a release by reference of uploaded
         *     media on a server whose blob store signs paths of its own and that has no
         *     `--public-url`, so the links would have no host) and `project` (`nothing_done`: no item
         *     is done yet).
         *
         *     Options (all optional): `include_dropped` (bool: also release dropped and unresolved
         *     items, marked), `raw` (bool: each item's labels as their annotators gave them, rejected ones too, and
         *     the reviews with the reviewers' corrections, each under its author's pseudonym and role),
         *     `split` (the one split name, default `test`), `split_key` (metadata key holding each
         *     item's split), `split_ratios` (`"train=0.8,test=0.2"` or an object), `cluster_key`
         *     (items sharing this metadata value stay in one split), `split_seed` (integer),
         *     `filter` (`{"key": ["v1", "v2"]}`) or `filter.<key>` (`"v1,v2"`), `media`
         *     (`copy`, the default: uploaded media copied into the release under `media/`;
         *     `reference`: uploaded media as absolute signed URLs that all expire 7 days after the
         *     release was asked for, at `media_links_expire_at`; paths and URLs given at import stay
         *     as they are either way), `ties` (omnireward, bool), `hidden_inputs` (d3omni, bool: write
         *     the hidden inputs such as the generator), `row_group_rows` (hf, 100 to 1000000).
         */
        post: operations["createRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/releases/{rid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One release with its progress, and its manifest once done (lead, viewer) */
        get: operations["getRelease"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/releases/{rid}/files/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One file of a done release (lead, viewer)
         * @description `path` is a path the manifest lists (it may contain slashes), or `manifest.json`. With
         *     the local blob store the server sends the file (range requests supported, `ETag` is its
         *     sha256, always as an attachment); with S3 it redirects to a signed URL valid for 15
         *     minutes.
         */
        get: operations["getReleaseFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/releases/{rid}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The whole of a done release as one zip (lead, viewer)
         * @description Streamed as it is written: every listed file (manifest.json included) under one folder
         *     named after the project and the release, read from the blob store one at a time.
         *     Parquet files and media are stored, the rest deflated. If a file cannot be read part
         *     way, the connection is closed before the zip ends, so the download fails visibly.
         */
        get: operations["getReleaseArchive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/releases/{rid}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Short-lived download links of a done release, for browsers (lead, viewer)
         * @description A browser cannot send a bearer token with a plain download, so the UI asks for links
         *     that carry their own credential, valid for 15 minutes and signed by the server for the
         *     caller: the archive through `GET /api/v1/release-archives/{rid}` and each file through
         *     `GET /api/v1/release-files/{rid}/{path}`. Every use checks that the caller may still read
         *     the project's releases, so the links of a member who was removed, lost the lead and
         *     viewer roles or was disabled stop working at once.
         */
        get: operations["getReleaseLinks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/release-archives/{rid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The zip of a release through a signed download link
         * @description The same zip as `GET /api/v1/projects/{pid}/releases/{rid}/archive`, for a link from
         *     `GET .../releases/{rid}/links`; the signature is the credential, so no bearer token is
         *     needed. A wrong or expired signature answers `403 forbidden`.
         */
        get: operations["getSignedReleaseArchive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/release-files/{rid}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One file of a release through a signed download link
         * @description The same file as `GET /api/v1/projects/{pid}/releases/{rid}/files/{path}`, for a link
         *     from `GET .../releases/{rid}/links`; the signature is the credential, so no bearer token
         *     is needed. With S3 the redirect's signed URL is valid for one minute, for the download
         *     the link starts.
         */
        get: operations["getSignedReleaseFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/{aid}/url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A short-lived signed URL for an asset (any member of its project)
         * @description For S3 a presigned GET URL of the bucket's endpoint; for the local store an HMAC-signed
         *     `/blobs/...` URL of this server (absolute when `--public-url` is set). Either answers
         *     with the asset's stored content type until `expires_at`.
         *
         *     A form in passes blinds files too: while the caller holds an open assignment in a pass,
         *     a file of an input that pass does not show is refused with `hidden_in_pass` (unless
         *     another open assignment of the caller shows the same file). Leads keep access.
         */
        get: operations["getAssetURL"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/assignments/{aid}/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Autosave the caller's answers to an open assignment
         * @description Optimistic concurrency: send the `version` you last loaded or saved (from `queue/next` or
         *     the previous save). A match stores the answers as the draft, keeps them as a revision and
         *     returns the next version; otherwise `409 stale_version` with `details.current_version`
         *     (another tab saved meanwhile). Drafts are not validated: half-made answers are kept as
         *     given.
         */
        put: operations["saveDraft"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/assignments/{aid}/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extend the lease of an open assignment
         * @description Renews the lease to `lease_minutes` from now. An expired lease is renewed only while
         *     nobody took the slot; otherwise `409 lease_lost`. No request body is read.
         */
        post: operations["heartbeat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/assignments/{aid}/skip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give an open assignment back
         * @description The item returns to the queue for others; the caller will not get it again in this stage.
         *     Audited as `assignment.skip`. The body is required (`{}` without a reason).
         */
        post: operations["skipAssignment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/assignments/{aid}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give back an assignment nobody has worked on
         * @description For an item claimed ahead (`prefetch`) when the person leaves: the assignment is removed
         *     as if it had never been claimed, so the item returns to the queue, for the caller too.
         *     Refused with 409 `has_draft` once a draft was saved (submit or skip instead), so nothing
         *     typed is thrown away. Audited as `assignment.release`. No body.
         */
        post: operations["releaseAssignment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/assignments/{aid}/flag": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Flag the item of an open assignment for the lead
         * @description Closes the assignment as `flagged` and flags the item, taking it out of the queue until
         *     the lead decides (`POST /api/v1/projects/{pid}/items/{iid}/flag`). Audited as `item.flag`.
         */
        post: operations["flagAssignment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/assignments/{aid}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish an open assignment
         * @description Validates the submission for the assignment's stage against the schema version the
         *     assignment was claimed with, stores it (answers converted from shown to canonical order)
         *     and moves the item on by the workflow policy, in one transaction. The answer's
         *     `item_stage` is where the item is now.
         *
         *     - `label`, `criteria` and `checklist`: `answers` are required and validated; a
         *       `checklist` submit puts the refined lists in the item's inputs and moves it to `label`.
         *     - `review`: `verdict` `approve` or `reject`, or `correct` with corrected `answers`; in a
         *       blind review send `answers` without a verdict and the verdict follows from agreement
         *       with the label.
         *     - `adjudicate`: `answers` and a `rationale` are required, `confidence` is 1 to 5; the
         *       answers become the item's ground truth (provenance `adjudicated`).
         *
         *     **Retries.** Send an `Idempotency-Key`; a retry of a submit that already succeeded with
         *     the same key is not applied again and answers 200 with the first result and
         *     `replayed: true`. Without a key (or with another one) a second submit gets
         *     `409 already_submitted`.
         */
        post: operations["submitAssignment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assignments/{aid}/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Autosave the caller's answers to an open assignment (deprecated alias)
         * @deprecated
         * @description Deprecated alias of `PUT /api/v1/projects/{pid}/assignments/{aid}/draft`, kept for
         *     one release: it finds the assignment's project and answers exactly as that route does,
         *     with a `Deprecation: true` header.
         */
        put: operations["saveDraftDeprecated"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assignments/{aid}/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extend the lease of an open assignment (deprecated alias)
         * @deprecated
         * @description Deprecated alias of `POST /api/v1/projects/{pid}/assignments/{aid}/heartbeat`, kept for
         *     one release: it finds the assignment's project and answers exactly as that route does,
         *     with a `Deprecation: true` header.
         */
        post: operations["heartbeatDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assignments/{aid}/skip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give an open assignment back (deprecated alias)
         * @deprecated
         * @description Deprecated alias of `POST /api/v1/projects/{pid}/assignments/{aid}/skip`, kept for
         *     one release: it finds the assignment's project and answers exactly as that route does,
         *     with a `Deprecation: true` header.
         */
        post: operations["skipAssignmentDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assignments/{aid}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give back an assignment nobody has worked on (deprecated alias)
         * @deprecated
         * @description Deprecated alias of `POST /api/v1/projects/{pid}/assignments/{aid}/release`, kept for
         *     one release: it finds the assignment's project and answers exactly as that route does,
         *     with a `Deprecation: true` header.
         */
        post: operations["releaseAssignmentDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assignments/{aid}/flag": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Flag the item of an open assignment for the lead (deprecated alias)
         * @deprecated
         * @description Deprecated alias of `POST /api/v1/projects/{pid}/assignments/{aid}/flag`, kept for
         *     one release: it finds the assignment's project and answers exactly as that route does,
         *     with a `Deprecation: true` header.
         */
        post: operations["flagAssignmentDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assignments/{aid}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish an open assignment (deprecated alias)
         * @deprecated
         * @description Deprecated alias of `POST /api/v1/projects/{pid}/assignments/{aid}/submit`, kept for
         *     one release: it finds the assignment's project and answers exactly as that route does,
         *     with a `Deprecation: true` header.
         */
        post: operations["submitAssignmentDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/formats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The export formats a release can name, with the options of each
         * @description Every format in documentation order, the same for every project and caller. The options
         *     listed with a format are those that belong to it alone; the options common to every
         *     format are described under `POST /api/v1/projects/{pid}/releases`.
         */
        get: operations["listFormats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The built-in task templates */
        get: operations["listTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One built-in template with its schema, forms and sample items */
        get: operations["getTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/{id}/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check answers against a template's schema, or one of its extra forms */
        post: operations["validateTemplateAnswers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness; answers while the process is up */
        get: operations["healthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness; the database and the blob store answer (each checked within 3 seconds) */
        get: operations["readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description `arbiter_http_requests_total{method,route,status}`,
         *     `arbiter_http_request_duration_seconds{method,route}`, and the Go and process collectors.
         *     Labels come from fixed sets only: route templates (or `unmatched`) and the methods `GET`,
         *     `HEAD`, `POST`, `PUT`, `PATCH`, `DELETE`, `OPTIONS` and `other`. With `--metrics-addr`
         *     this path answers 404 and the metrics are on that address; with `ARBITER_METRICS_TOKEN`
         *     they need `Authorization: Bearer <token>`.
         */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/blobs/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A local-store blob through its signed URL
         * @description Only with the local blob store; URLs come from `GET /api/v1/assets/{aid}/url`. Supports
         *     range requests. Served with `X-Content-Type-Options: nosniff` and
         *     `Content-Security-Policy: sandbox`. With the S3 store every key answers 404.
         */
        get: operations["getBlob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/template-media/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sample media shipped with the built-in templates (public example files) */
        get: operations["getTemplateMedia"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's webhooks, without their secrets (lead) */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook; its signing secret is answered this once (lead)
         * @description Each event the webhook takes is posted to `url` as `{type, timestamp, data}`, signed as
         *     Standard Webhooks says: `webhook-id` (the delivery's id, the same on every attempt),
         *     `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` and the base64 of the
         *     HMAC-SHA256 of `id.timestamp.body`, keyed by the secret's base64 part). A delivery is
         *     tried up to 8 times with exponential backoff (5 s, then four times longer each time),
         *     each attempt bounded to 20 s; a 2xx answer delivers it. Targets on loopback, link-local,
         *     private (RFC 1918, RFC 4193), unspecified, multicast or shared (CGNAT) addresses are
         *     refused, here and again on the address dialled at each attempt, unless the server runs
         *     with `--webhook-allow-private`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/webhooks/{wid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a webhook and its delivery log (lead) */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook's url, events or enabled flag (lead)
         * @description A disabled webhook gets no new deliveries, and its queued ones end `failed` without an attempt.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/projects/{pid}/webhooks/{wid}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give a webhook a new secret, answered this once (lead)
         * @description Attempts from now on, including retries of earlier deliveries, are signed with the new secret.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{pid}/webhooks/{wid}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook's latest 100 deliveries, newest first (lead) */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description The event's `data` always holds `project_id`, and: `release.completed` `release_id`,
         *     `name`, `release_url`, `manifest_path`, `manifest_url`; `release.failed` `release_id`,
         *     `name`, `release_url`, `error`; `calibration_round.closed` `round_id`, `number`;
         *     `item.decided` `item_id`, `external_id`, `provenance`; `import.completed` `import_id`,
         *     `lines` (background imports); `annotator.flagged` `user_id`, `reason`, `gold_correct`,
         *     `gold_answered` (paused by the gold check).
         * @enum {string}
         */
        WebhookEvent: "release.completed" | "release.failed" | "calibration_round.closed" | "item.decided" | "import.completed" | "annotator.flagged";
        Webhook: {
            id: string;
            project_id: string;
            url: string;
            events: components["schemas"]["WebhookEvent"][];
            enabled: boolean;
            created_by: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        WebhookWithSecret: {
            id: string;
            project_id: string;
            url: string;
            events: components["schemas"]["WebhookEvent"][];
            enabled: boolean;
            created_by: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /**
             * @description `whsec_` and the base64 of 32 random bytes; shown only in this answer.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        WebhookDelivery: {
            /** @description The `webhook-id` header of every attempt. */
            id: string;
            webhook_id: string;
            event: components["schemas"]["WebhookEvent"];
            /**
             * @description `pending` while queued or between attempts, `delivered` on a 2xx answer, `failed` once no attempt is left or the webhook was disabled.
             * @enum {string}
             */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            last_error: string | null;
            /** @description The HTTP status of the last answer. */
            response_status: number | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            delivered_at: string | null;
        };
        /**
         * @example {
         *       "error": {
         *         "code": "validation_failed",
         *         "message": "the request has invalid fields",
         *         "details": {
         *           "name": {
         *             "code": "invalid_length",
         *             "message": "name must be 1 to 200 characters"
         *           }
         *         }
         *       }
         *     }
         */
        Error: {
            error: {
                /**
                 * @description Stable machine-readable code.
                 * @enum {string}
                 */
                code: "bad_request" | "invalid_json" | "validation_failed" | "unauthorized" | "token_expired" | "refresh_token_reused" | "forbidden" | "insufficient_scope" | "csrf_rejected" | "own_account" | "reset_link_invalid" | "not_found" | "method_not_allowed" | "conflict" | "stale_version" | "lease_lost" | "already_submitted" | "has_draft" | "no_schema" | "archived" | "last_lead" | "paused" | "round_closed" | "round_open" | "not_qualified" | "hidden_in_pass" | "import_stopped" | "release_not_done" | "quota_exceeded" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "too_many_jobs" | "client_closed_request" | "internal" | "unavailable";
                /** @description What went wrong, for a person. Internal errors carry only the request id. */
                message: string;
                /** @description Null, an object of FieldError by field path or question key, or extra facts such as `field`, `offset` or (for `stale_version`) `current_version`. */
                details: null | {
                    [key: string]: unknown;
                };
            };
        };
        /** @description An Error whose details map field paths or question keys to FieldErrors. */
        ValidationError: components["schemas"]["Error"] & {
            error?: {
                /** @constant */
                code?: "validation_failed";
                message?: string;
                details?: {
                    [key: string]: components["schemas"]["FieldError"];
                };
            };
        };
        /** @description One problem of a project setup at its field path. */
        SetupProblem: {
            /** @description the path, e.g. `schema.questions[2].anchors` */
            field: string;
            code: string;
            message: string;
        };
        FieldError: {
            code: string;
            message: string;
        };
        /**
         * @description At least 12 characters, no composition rules (NIST SP 800-63B). Refused as `too_common`
         *     when it is one of the 10,000 most common passwords (also with digits or symbols around
         *     it), one character or short run repeated, a sequence, or the account's email or name.
         */
        NewPassword: string;
        /** @enum {string} */
        Scope: "read" | "annotate" | "manage" | "admin";
        TokenPair: {
            /** @description HS256 JWT. */
            access_token: string;
            /** @description Lifetime of the access token in seconds. */
            expires_in: number;
            /** @constant */
            token_type: "Bearer";
            user: components["schemas"]["User"];
        };
        User: {
            id: string;
            email: string;
            name: string;
            is_admin: boolean;
            /** @description Granted by administrators; administrators can always create projects. */
            can_create_projects: boolean;
            disabled: boolean;
            locale: components["schemas"]["Locale"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @description The language of the user's interface; empty when the user has not chosen one (the browser's language applies, English otherwise).
         * @enum {string}
         */
        Locale: "" | "en" | "zh-CN";
        PersonalAccessToken: {
            id: string;
            name: string;
            /** @description The first characters of the token, to recognise it. */
            prefix: string;
            scopes: components["schemas"]["Scope"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            last_used_at: string | null;
        };
        /** @enum {string} */
        Role: "lead" | "annotator" | "reviewer" | "adjudicator" | "viewer";
        Project: {
            id: string;
            name: string;
            description: string;
            /** @description The template it was created from; empty for explicit schemas. */
            template: string;
            /** @description Markdown guidelines shown to everyone who works on the project. */
            guidelines: string;
            /**
             * Format: date-time
             * @description When the project was archived; null while it is active.
             */
            archived_at: string | null;
            /** @description The storage quota in bytes; null means no limit. */
            storage_quota?: number | null;
            workflow: components["schemas"]["WorkflowPolicy"];
            /** @description The current schema version; 0 while the project has no schema. */
            schema_version: number;
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The caller's roles in the project (every role for administrators). */
            my_roles: components["schemas"]["Role"][];
        };
        /** @description What the project holds in the blob store, against its quota. Uploaded files and release files count alike; a running release counts what it has reserved for the files it is writing, a failed one nothing once its files are removed. */
        Storage: {
            /** @description asset_bytes plus release_bytes. */
            used_bytes: number;
            /** @description The uploaded files. */
            asset_bytes: number;
            /** @description The files of the project's releases. */
            release_bytes: number;
            /** @description null means no limit. */
            quota_bytes: number | null;
        };
        /** @description A project with its current task schema and forms and its workflow policy. */
        ProjectDetail: {
            balance: components["schemas"]["BalanceTargets"];
            id: string;
            name: string;
            description: string;
            /** @description The template it was created from; empty for explicit schemas. */
            template: string;
            /** @description Markdown guidelines shown to everyone who works on the project. */
            guidelines: string;
            /**
             * Format: date-time
             * @description When the project was archived; null while it is active.
             */
            archived_at: string | null;
            workflow: components["schemas"]["WorkflowPolicy"];
            /** @description The current schema version; 0 while the project has no schema. */
            schema_version: number;
            /** @description The current task schema, or null while there is none. */
            schema: null | components["schemas"]["task-schema"];
            /** @description Extra forms of the current schema version keyed by form key (only present with a schema; null when it has none). */
            forms?: null | {
                [key: string]: components["schemas"]["task-schema"];
            };
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The caller's roles in the project (every role for administrators). */
            my_roles: components["schemas"]["Role"][];
        };
        /**
         * @description How a project's items move from labeling through review and adjudication to ground
         *     truth. Every field is optional in requests; the server fills unset fields with the
         *     defaults shown and stores the result.
         * @example {
         *       "overlap": 3,
         *       "review": "none",
         *       "adjudication": "on_disagreement",
         *       "consensus": {
         *         "nominal": "majority",
         *         "ordinal_tolerance": 1
         *       },
         *       "on_no_consensus": "adjudicate",
         *       "lease_minutes": 30,
         *       "blind_review": false,
         *       "spot_check_rate": 0.05,
         *       "show_annotator_names": false,
         *       "gold_rate": 0.05,
         *       "gold_min_accuracy": 0.8,
         *       "gold_window": 20,
         *       "gold_pause": true,
         *       "rushed_seconds": 3,
         *       "reliability_min_accuracy": 0.7
         *     }
         */
        WorkflowPolicy: {
            /**
             * @description Independent labels per item (with `adaptive_overlap`, the labels every item starts with: `min`).
             * @default 1
             */
            overlap: number;
            /**
             * @description Labels per item by need instead of a fixed overlap. Every item takes `min` labels; once
             *     they are in (and reviewed, with cross review), each question with categories gets the
             *     posterior of its answer from the project's reliability model (Dawid–Skene per question:
             *     each annotator's confusion matrix and the class prior, refitted in the background as
             *     labels arrive, with gold items pinned to their answers; an annotator the model does not
             *     know yet counts as right 80 % of the time, and before the first fit every question has a
             *     uniform prior). When every question's likeliest answer reaches `confidence` and the
             *     consensus rule settles the labels, the rule decides the item as with a fixed overlap and
             *     the posteriors go into the ground truth's `provenance.details.posterior`
             *     (`{question: {value, probability}}`); otherwise the item takes one more label (audited
             *     `item.more_labels` with the posteriors), up to `max`. An item at `max` is decided as
             *     `on_max` says. The claim and the queue's guarantees are those of a fixed overlap: nobody
             *     labels an item twice and no item takes more labels than it asked for.
             */
            adaptive_overlap?: {
                min: number;
                /** @description At least `min`. */
                max: number;
                /** @example 0.9 */
                confidence: number;
                /**
                 * @description `consensus`: the consensus rule decides over the labels (and where it settles nothing, `on_no_consensus`); `adjudicate` (not with `adjudication: never`); `drop`, with the posteriors in the drop reason.
                 * @default consensus
                 * @enum {string}
                 */
                on_max: "consensus" | "adjudicate" | "drop";
                /** @description The fixed overlap this replaces, which the dataset report compares the labels spent with (default `min` + 1, at most `max`). */
                baseline?: number;
            };
            /**
             * @description `cross`: every label is reviewed by a different person (stage `review`).
             * @default none
             * @enum {string}
             */
            review: "none" | "cross";
            /**
             * @default on_disagreement
             * @enum {string}
             */
            adjudication: "never" | "on_disagreement" | "always";
            /**
             * @description How each question's evaluations become its released value. `consensus` (the
             *     default): one answer the labels agree on under the consensus rule, else adjudicate
             *     or drop. `mean` and `median` (scored questions only): every evaluation weighted
             *     equally, nothing dropped, the spread kept (`n`, `min`, `max`, `sd`) in the ground
             *     truth's `details.aggregates` and in releases. `all`: no aggregation, each
             *     evaluation is a record. An aggregated question never keeps an item from being
             *     decided; an item whose every decided question is aggregated has provenance
             *     `aggregated`.
             */
            aggregation?: {
                /**
                 * @description The rule of every question not named in `questions`.
                 * @enum {string}
                 */
                default?: "consensus" | "mean" | "median" | "all";
                /** @description The rule of a question, by key. */
                questions?: {
                    [key: string]: "consensus" | "mean" | "median" | "all";
                };
            };
            /** @description When independent labels agree. */
            consensus?: {
                /**
                 * @description `majority` is strictly more than half. `reliability` (weighted consensus) takes the answer with the highest posterior under the project's reliability model (each annotator's confusion matrix and the class prior, as in `adaptive_overlap`), provenance `weighted`, with the posteriors in `provenance.details.posterior`; a question the model leaves out (no categories) is decided by the majority.
                 * @default unanimous
                 * @enum {string}
                 */
                nominal: "unanimous" | "majority" | "reliability";
                /**
                 * @description Ordinal scores within ± this many points agree (0 = exact).
                 * @default 0
                 */
                ordinal_tolerance: number;
            };
            /**
             * @description What happens to an item whose labels do not agree when adjudication is
             *     `on_disagreement`: `adjudicate` sends it to adjudication, `drop` drops it with the
             *     disagreement as the reason. With adjudication `never` such items are always dropped,
             *     so the default is then `drop` and `adjudicate` is refused (422 on
             *     `workflow.on_no_consensus`); with `always` every item is adjudicated and this field
             *     has no effect.
             * @default adjudicate
             * @enum {string}
             */
            on_no_consensus: "adjudicate" | "drop";
            /**
             * @description How long a claim holds before the item returns to the queue.
             * @default 30
             */
            lease_minutes: number;
            /**
             * @description Reviewers give their own answers without seeing the label.
             * @default false
             */
            blind_review: boolean;
            /** @description Criteria authoring before labeling (Omni-Reward); omitted when off. */
            criteria_stage?: {
                /** @description Key of the project form used to write criteria. */
                form: string;
                /** @description The `criteria` question of that form. */
                question: string;
                /** @description The schema input that receives the criterion text in child items. */
                input: string;
                /**
                 * @description Authors per item: this many different annotators write criteria for each item
                 *     (Omni-Reward asks every annotator). The item waits for review once all have
                 *     written; repeats across authors are marked `duplicate` by the reviewer.
                 * @default 1
                 */
                overlap: number;
                /**
                 * @description Lets the author of a criterion label the unit made from it, as Omni-Reward's
                 *     three annotators wrote the criteria and gave every unit its three labels. Off,
                 *     a unit is never given to its criterion's author, so overlap N needs N+1
                 *     annotators (the feasibility check warns `authors_label`). An author never
                 *     reviews or adjudicates a unit of their own criterion either way.
                 * @default false
                 */
                authors_label: boolean;
            };
            /**
             * @description Checklist refinement before labeling (Judge Anything); omitted when off. One person
             *     decides every drafted entry of each list the form's `list_edit` questions edit
             *     (keep, drop, reword) and adds what is missing; the item is then labeled with the
             *     refined lists, and releases keep the drafted ones beside them (`refinements` in
             *     jsonl; `drafted`, `entries`, `dropped`, `refined_by` in Judge Anything's
             *     `checklist.json`). The refiner does not work the item in another stage, so overlap
             *     N needs N+1 annotators. An item imported without a list to refine goes straight to
             *     `label`. Not combined with `criteria_stage`.
             */
            checklist_stage?: {
                /** @description Key of the project form whose `list_edit` questions refine the lists. */
                form: string;
            };
            /** @description Prefill new labels from imported model predictions; omitted when off. */
            draft_from_predictions?: {
                /**
                 * @description `mean` (likert and checklist, rounded; majority otherwise), `majority`, or the answers of one `model`.
                 * @enum {string}
                 */
                method: "mean" | "majority" | "model";
                /** @description The model whose predictions are the draft; required with `model`. */
                model?: string;
                /**
                 * @default half_up
                 * @enum {string}
                 */
                rounding: "half_up" | "floor" | "ceil";
            };
            /**
             * @description Share of items imported with ground truth that still go to blind labeling; a mismatch flags the item.
             * @default 0
             */
            spot_check_rate: number;
            /**
             * @description Adjudicators see who gave which label (leads always do).
             * @default false
             */
            show_annotator_names: boolean;
            /**
             * @description Share of label claims that hand out a gold item (imported with `gold: true`) instead of
             *     a production item, while production work is left for the person. Each person gets each
             *     gold item at most once.
             * @default 0
             */
            gold_rate: number;
            /**
             * @description An annotator whose gold accuracy over the last `gold_window` gold answers falls below this is flagged `low_gold_accuracy` (unset or 0 means the default).
             * @default 0.8
             */
            gold_min_accuracy: number;
            /**
             * @description How many of a person's latest gold answers the accuracy is taken over; judged once 5 (or `gold_window`, if fewer) are in the window.
             * @default 20
             */
            gold_window: number;
            /**
             * @description A flagged annotator is paused: `queue/next` for `label` and `criteria` answers `403 paused` until a lead sets `paused: false` on the member.
             * @default false
             */
            gold_pause: boolean;
            /**
             * @description A label submitted after less time than this counts as rushed (unset or 0 means the default).
             * @default 3
             */
            rushed_seconds: number;
            /**
             * @description An annotator with at least 20 modelled answers whose whole reliability interval (`GET .../quality`, `reliability`) lies below this is flagged `low_reliability` (unset or 0 means the default).
             * @default 0.7
             */
            reliability_min_accuracy: number;
            /**
             * @description Annotators claim `label` work only once qualified: by passing a calibration round of the project, or by a lead (`PUT .../members/{uid}` with `qualified`).
             * @default false
             */
            require_qualification: boolean;
            /**
             * @description The languages (BCP 47) the project takes: every imported item must carry one of them
             *     (or a more specific tag under one, `en-US` under `en`); a line without a language or in
             *     another is refused (`required`, `language_not_allowed`). Stored canonical and sorted; a
             *     bad tag is `422` at `workflow.languages[i]`. Left out, items may carry any language or
             *     none.
             */
            languages?: string[];
        };
        ProjectStats: {
            /** @description Item counts per stage, split by whether the item is flagged. */
            items: {
                stage: components["schemas"]["ItemStage"];
                flagged: boolean;
                count: number;
            }[];
            /** @description Submitted work per person and stage (rejected labels included), by name. */
            throughput: {
                user_id: string;
                name: string;
                stage: components["schemas"]["WorkStage"];
                submitted: number;
                /** @description Submitted since midnight UTC. */
                today: number;
            }[];
        };
        /**
         * @description Where an item is: `criteria` (criteria to write), `criteria_review` (criteria to mark),
         *     `split` (became child items), `checklist` (its drafted checklist to refine), `label`, `review`, `adjudicate`, `done` (has ground truth),
         *     `dropped` (see `drop_reason`), `gold` (a gold item: mixed into label queues at the
         *     policy's `gold_rate`, never decided, released or counted in agreement), `calibration` (in
         *     the calibration pool: only calibration rounds use it; never in production queues, counts,
         *     agreement or releases).
         * @enum {string}
         */
        ItemStage: "criteria" | "criteria_review" | "split" | "checklist" | "label" | "review" | "adjudicate" | "done" | "dropped" | "gold" | "calibration";
        /**
         * @description A stage people claim work in; `calibration` is work of a calibration round.
         * @enum {string}
         */
        WorkStage: "criteria" | "checklist" | "label" | "review" | "adjudicate" | "calibration";
        /**
         * @description Answers keyed by question key; see docs/tasks.md for each kind's value (e.g. a likert
         *     integer, `"yes"`/`"no"`/`"na"`, an option key, a list of slots best first). Pairwise and
         *     ranking answers name the candidate slots as shown to the person (`"A"`, `"B"`, ...) in
         *     requests and in what a worker receives; leads see canonical order.
         * @example {
         *       "physical_adherence": 4,
         *       "count_correct": "yes",
         *       "preferred": "B"
         *     }
         */
        Answers: {
            [key: string]: unknown;
        };
        /** @description What an items import of the project takes, made from its schema. */
        ItemSample: {
            /**
             * @description The import this is the format of.
             * @enum {string}
             */
            pool: "production" | "calibration";
            /** @description The inputs of a line, in schema order. */
            inputs: ({
                /** @description The key of the input in a line's `inputs`. */
                name: string;
                /** @enum {string} */
                type: "text" | "markdown" | "image" | "image_list" | "video" | "audio" | "model3d" | "json" | "candidates";
                label?: string;
                help?: string;
                /** @description Hidden from annotators (only leads and the roles in `visible_to` see it). */
                hidden?: boolean;
                /** @description May be left out of a line; otherwise required. */
                optional?: boolean;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The declared keys of a line's `meta`. */
            meta: {
                key: string;
                label?: string;
                help?: string;
                /** @description The values it may take; absent for any JSON. */
                options?: string[];
                required?: boolean;
            }[];
            /** @description Example lines that import as they are (media as URLs); in the calibration pool with a gold answer to every question. */
            lines: components["schemas"]["ItemLine"][];
        };
        /** @description One line of an items import. */
        ItemLine: {
            /** @description The caller's id of the item, unique in the project; re-importing it updates the item. */
            external_id: string;
            /** @description Input values keyed by schema input name; media as `{"asset": "<id>"}` of this project or a URL. */
            inputs: {
                [key: string]: unknown;
            };
            /** @description Hidden metadata (only leads see it). */
            meta?: {
                [key: string]: unknown;
            };
            /**
             * @description The item's language as a BCP 47 tag, stored canonical (`EN-us` becomes `en-US`). A tag
             *     that is not well-formed refuses the line (`invalid_language` at `language`); so does
             *     one outside the project's `languages`. Queues give the item only to members who read
             *     it.
             * @example en
             * @example zh-Hans
             */
            language?: string;
            /**
             * @description Known ground truth (new items only); the item goes to `done`. `constructed` truth
             *     answers every required question; a `rule` answers only the questions it decides (at
             *     least one), e.g. `{"physical_adherence": 5, "instruction_alignment": 5}` for a real
             *     demonstration. With `gold: true` it is the gold answer instead, and in a calibration
             *     pool import the gold answer; in both `provenance` may be left out.
             */
            ground_truth?: {
                answers: components["schemas"]["Answers"];
                /**
                 * @description Required unless the line is gold.
                 * @enum {string}
                 */
                provenance?: "rule" | "constructed";
                note?: string;
            };
            /**
             * @description A gold item (new items only; needs `ground_truth`): stage `gold`, handed out in label
             *     queues at the policy's `gold_rate` and looking like any other item to the person;
             *     each answer is scored against the gold answer (the project's consensus rule, every
             *     question) for the person's gold accuracy. Its answers never become ground truth and it
             *     is never released nor counted in agreement.
             * @default false
             */
            gold: boolean;
        };
        /** @description One line of a predictions import. */
        PredictionLine: {
            external_id: string;
            model: string;
            answers: components["schemas"]["Answers"];
        };
        /**
         * @description An export format's name, as a release names it; `GET /api/v1/formats` says what each
         *     writes. The list is `exports.FormatNames()` in the same order, held to it by
         *     `backend/api/formats_test.go`.
         * @enum {string}
         */
        ExportFormat: "jsonl" | "csv" | "hf" | "d3omni" | "omnireward" | "judgeanything" | "robojudge" | "storybench";
        /** @description One export format. */
        FormatInfo: {
            name: components["schemas"]["ExportFormat"];
            /** @description What the format writes and where. */
            description: string;
            /** @description The option keys that belong to this format alone (e.g. `ties` for `omnireward`); empty for most. */
            options: string[];
        };
        ReleaseRequest: {
            /** @description The release's name, e.g. `v1` (1 to 100 characters). */
            name: string;
            /** @description Formats to write, in order; `GET /api/v1/formats` describes each one's files. */
            formats: components["schemas"]["ExportFormat"][];
            /** @description Options as described under `POST .../releases`; strings are accepted for booleans and numbers. */
            options?: {
                [key: string]: unknown;
            };
        };
        /** @description A release and how far its job got. */
        Release: {
            id: string;
            name: string;
            /**
             * @description `queued` with its job, `running` while files are written, then `done` (files listed) or `failed` (`error` set, nothing listed).
             * @enum {string}
             */
            status: "queued" | "running" | "done" | "failed";
            formats: components["schemas"]["ExportFormat"][];
            /** @description The options as asked. */
            options: {
                [key: string]: unknown;
            };
            /** @description The project's schema version the release exports. */
            schema_version: number;
            progress: {
                /** @description Items read so far. */
                records: number;
                /** @description Items the release reads (set when it starts running). */
                total: number;
            };
            /** @description Why the release failed. */
            error?: string;
            /**
             * Format: date-time
             * @description For a release by reference (`media: reference`), when the signed links to uploaded media in its files stop working (7 days after `created_at`); absent when media are copied.
             */
            media_links_expire_at?: string;
            summary?: components["schemas"]["ReleaseSummary"];
            manifest?: components["schemas"]["ReleaseManifest"];
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            finished_at?: string;
        };
        /** @description What a done release holds: the manifest's tally (the dataset card counts from the same one), its headline counts repeated at the top. */
        ReleaseSummary: {
            records: number;
            by_split: {
                [key: string]: number;
            };
            by_provenance: {
                [key: string]: number;
            };
            /** @description Records per item language (`und` for items without one); absent when no released item has a language. */
            by_language?: {
                [key: string]: number;
            };
            tally: components["schemas"]["ReleaseTally"];
            /** @description Files listed, manifest.json included. */
            files: number;
            /** @description Bytes of the files the manifest lists. */
            bytes: number;
        };
        /** @description A number of items (or criteria) lost for one reason. */
        ReleaseLoss: {
            /** @description `dropped`, `unresolved` (still in work), `spot_check` (a blind spot check disagreed with imported truth, not yet resolved by the lead), `no_ground_truth`, `unanswered`, `tie` (omnireward `ties=false`), `seed_not_all_yes` (d3omni), `criteria_qc`; new kinds may be added. */
            kind: string;
            /** @description The drop reason, the questions a spot check disagreed on, a QC verdict, ... */
            reason?: string;
            items: number;
        };
        /** @description What became of every item a release read, counted once: read = filtered + excluded + total, excluded = the sum of left_out. */
        ReleaseTally: {
            /** @description Items the release read (gold items and the calibration pool are never read). */
            read: number;
            /** @description Records released. */
            total: number;
            by_split: {
                [key: string]: number;
            };
            by_status: {
                [key: string]: number;
            };
            by_provenance: {
                [key: string]: number;
            };
            /** @description Records per item language (`und` for items without one); absent when no released item has a language. */
            by_language?: {
                [key: string]: number;
            };
            /** @description Items within the filter left out of the release. */
            excluded: number;
            /** @description Why they were left out. */
            left_out: components["schemas"]["ReleaseLoss"][];
            /** @description Items the metadata filter left out. */
            filtered: number;
            /** @description Dropped items within the filter by drop reason, released (include_dropped) or not. */
            dropped: components["schemas"]["ReleaseLoss"][];
            /** @description Items within the filter still in work. */
            unresolved: number;
            /** @description Times a person skipped one of the items within the filter. */
            skipped: number;
            /** @description The criteria stage's criteria and the units made from them; absent without a criteria stage. */
            criteria?: {
                written: number;
                /** @description Criteria kept by QC; each became a unit. */
                valid: number;
                /** @description Criteria not yet reviewed. */
                pending: number;
                /** @description Criteria removed in QC by verdict. */
                removed: components["schemas"]["ReleaseLoss"][];
                units_read: number;
                units_done: number;
                units_dropped: components["schemas"]["ReleaseLoss"][];
            };
            /** @description Per format, the released records it holds (items, however many rows each becomes) and those it leaves out. */
            formats: {
                [key: string]: {
                    records: number;
                    left_out: components["schemas"]["ReleaseLoss"][];
                };
            };
        };
        /** @description `manifest.json` of a done release: every other file with its sha256 and size, the counts, and what produced it. */
        ReleaseManifest: {
            name: string;
            project: {
                id: string;
                name: string;
            };
            arbiter_version: string;
            /** Format: date-time */
            created_at: string;
            schema: {
                version: number;
                hash: string;
                format: number;
                template?: string;
            };
            /** @description The workflow policy as stored. */
            policy: unknown;
            formats: components["schemas"]["ExportFormat"][];
            /** @description Every option with its default filled in. */
            options: {
                [key: string]: unknown;
            };
            filters: {
                [key: string]: string[];
            };
            records: components["schemas"]["ReleaseTally"];
            files: {
                path: string;
                /** @description The format that wrote it, `release` for README.md and agreement.json, `media` for copied media. */
                format: string;
                bytes: number;
                sha256: string;
                records: number;
            }[];
        };
        ReleaseLinks: {
            /** @description Signed link to the zip of the whole release. */
            archive: string;
            files: {
                path: string;
                /** @description Signed link to the file (`/api/v1/release-files/...`). */
                url: string;
                bytes: number;
                sha256: string;
            }[];
            /** Format: date-time */
            expires_at: string;
        };
        /** @description A file imported in the background, with its progress. */
        BackgroundImport: {
            id: string;
            /** @enum {string} */
            kind: "items" | "predictions";
            /** @description The `filename` query parameter of the upload, base name only; may be empty. */
            filename?: string;
            /** @enum {string} */
            status: "queued" | "running" | "done" | "failed";
            /** @description Size of the uploaded file. */
            bytes_total: number;
            /** @description Bytes read by the worker so far. */
            bytes_done: number;
            lines_done: number;
            /** @description bytes_done / bytes_total × 100; 100 when done. */
            percent: number;
            report?: components["schemas"]["ImportReport"] | null;
            error?: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @description What an NDJSON import did; good lines are kept even when others fail.
         * @example {
         *       "lines": 4,
         *       "imported": 2,
         *       "updated": 0,
         *       "unchanged": 1,
         *       "errors": [
         *         {
         *           "line": 3,
         *           "error": "invalid item",
         *           "details": {
         *             "inputs.image": {
         *               "code": "unknown_asset",
         *               "message": "asset \"0190ffff\" was not uploaded to this project"
         *             }
         *           }
         *         }
         *       ]
         *     }
         */
        ImportReport: {
            /** @description Number of the last line read (blank lines included). */
            lines: number;
            /** @description New items (or stored predictions). */
            imported: number;
            /** @description Existing items whose inputs or meta changed. */
            updated: number;
            /** @description Existing items imported again as they were. */
            unchanged: number;
            /** @description Refused lines, at most 1000. */
            errors: {
                /** @description 1-based line number. */
                line: number;
                error: string;
                /** @description For `invalid item` and `unknown field …`: FieldErrors keyed by path (`inputs.<name>`, `ground_truth.answers.<key>`, an unknown key's path) or question key. */
                details?: {
                    [key: string]: components["schemas"]["FieldError"];
                };
            }[];
            /** @description Present (true) when more than 1000 lines failed. */
            errors_truncated?: boolean;
        };
        /** @description An item as a lead sees it, with every assignment on it and its latest ground truth. */
        LeadItem: {
            id: string;
            project_id: string;
            external_id: string;
            /** @description For a criterion's child item: the parent item. */
            parent_id?: string;
            inputs: {
                [key: string]: unknown;
            };
            meta?: {
                [key: string]: unknown;
            };
            /** @description The item's canonical BCP 47 tag; absent when it has none. */
            language?: string;
            stage: components["schemas"]["ItemStage"];
            /**
             * @description Present while the item is flagged: `{category, reason, by, assignment, at}` from an
             *     annotator, or `{category: "spot_check_mismatch", reason, ground_truth_revision,
             *     disagreements}` from a spot check.
             */
            flag?: {
                /**
                 * @example broken_media
                 * @example unsafe_content
                 * @example wrong_modality
                 * @example other
                 * @example spot_check_mismatch
                 */
                category?: string;
                reason?: string;
            } & {
                [key: string]: unknown;
            };
            /** @description Why the item was dropped. */
            drop_reason?: string;
            /** @description Imported with ground truth and sampled for blind labeling. */
            spot_check: boolean;
            /** @description The latest ground-truth revision (0 = none). */
            gt_revision: number;
            version: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Label assignments, oldest first. */
            annotations: components["schemas"]["Assignment"][];
            /** @description Review assignments, oldest first. */
            reviews: components["schemas"]["Assignment"][];
            /** @description Assignments of other stages (criteria, adjudication); omitted when none. */
            other_work?: components["schemas"]["Assignment"][];
            ground_truth: null | components["schemas"]["GroundTruth"];
        };
        /** @description One person's work on an item in one stage, as a lead sees it (answers in canonical order). */
        Assignment: {
            id: string;
            user_id: string;
            stage: components["schemas"]["WorkStage"];
            /** @enum {string} */
            status: "active" | "submitted" | "expired" | "skipped" | "flagged" | "rejected";
            answers?: components["schemas"]["Answers"];
            /** @description A reviewer's correction of this label. */
            corrected_answers?: components["schemas"]["Answers"];
            /**
             * @description Labels only.
             * @enum {string}
             */
            review_status?: "none" | "pending" | "approved" | "corrected" | "rejected" | "disputed";
            /** @description Reviews: the label under review. */
            target_id?: string;
            /** @enum {string} */
            verdict?: "approve" | "correct" | "reject" | "disputed";
            comment?: string;
            /** @description Reviews: comments per question key. */
            comments?: {
                [key: string]: string;
            };
            rationale?: string;
            /** @description Where the prefilled draft came from, e.g. `predictions:mean` or `model:judge-a`. */
            draft_source?: string;
            /** Format: int64 */
            time_spent_ms: number;
            /** Format: date-time */
            submitted_at?: string;
            /** @description Per candidates input, the order shown to this person (`perm[slot]` is the canonical index). */
            shown_order?: {
                [key: string]: {
                    perm?: number[];
                    ids?: string[];
                };
            };
        };
        /**
         * @description An item's latest ground truth with its provenance.
         * @example {
         *       "answers": {
         *         "physical_adherence": 3,
         *         "count_correct": "no"
         *       },
         *       "provenance": {
         *         "kind": "adjudicated",
         *         "at": "2025-06-01T11:02:00Z",
         *         "by": "0190a1b2c3d4e5f6a7b8c9d0e1f2a3b4",
         *         "rationale": "only one cat is fully visible",
         *         "details": {
         *           "assignment": "0190b2c3d4e5f6a7b8c9d0e1f2a3b4c5",
         *           "confidence": 4,
         *           "error_category": "counting"
         *         }
         *       },
         *       "revision": 2
         *     }
         */
        GroundTruth: {
            answers: components["schemas"]["Answers"];
            provenance: {
                /** @enum {string} */
                kind: "unanimous" | "majority" | "weighted" | "single" | "adjudicated" | "rule" | "constructed" | "aggregated";
                /** Format: date-time */
                at: string;
                /** @description The adjudicator. */
                by?: string;
                /** @description The adjudicator's rationale, or the import note. */
                rationale?: string;
                /** @description E.g. `{labels}` for consensus, `{assignment, confidence, error_category}` for adjudication; `aggregates` holds, per question the policy aggregates (mean, median, all), `{rule, n, value, min, max, sd}`. */
                details?: {
                    [key: string]: unknown;
                };
            };
            revision: number;
            texts?: components["schemas"]["KeptTexts"];
        };
        /** @description One stored revision of an item's ground truth. */
        GroundTruthRevision: {
            revision: number;
            answers: components["schemas"]["Answers"];
            /** @enum {string} */
            provenance: "unanimous" | "majority" | "weighted" | "single" | "adjudicated" | "rule" | "constructed" | "aggregated";
            decided_by?: string;
            rationale?: string;
            details?: {
                [key: string]: unknown;
            };
            texts?: components["schemas"]["KeptTexts"];
            /** Format: date-time */
            created_at: string;
        };
        /**
         * @description The free-text answers kept with a ground-truth decision, per text question: the
         *     adjudicator's first (`role: adjudicator`), then every accepted label's (`annotator`, or
         *     `corrected` when a reviewer's correction replaced the label). Releases carry them with
         *     the authors pseudonymised. Omitted when nobody wrote any.
         */
        KeptTexts: {
            [key: string]: {
                /** @description The writer's user id. */
                author: string;
                /** @enum {string} */
                role: "annotator" | "corrected" | "adjudicator";
                text: string;
            }[];
        };
        /** @description A criterion written for an item in the criteria stage. */
        Criterion: {
            id: string;
            project_id: string;
            item_id: string;
            assignment_id: string;
            author_id: string;
            text: string;
            /** @enum {string} */
            status: "pending" | "valid" | "too_vague" | "too_specific" | "duplicate";
            reviewed_by?: string;
            /** @description The child item a valid criterion became. */
            child_item_id?: string;
            /** @description The criterion of the same item a duplicate repeats. */
            duplicate_of?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        Prediction: {
            item_id: string;
            model: string;
            answers: components["schemas"]["Answers"];
            /** Format: date-time */
            created_at: string;
        };
        /**
         * @description What `queue/next` hands out.
         * @example {
         *       "assignment": {
         *         "id": "0190c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
         *         "stage": "label",
         *         "lease_expires_at": "2025-06-01T10:45:00Z",
         *         "version": 1,
         *         "schema_version": 1,
         *         "draft_source": null
         *       },
         *       "item": {
         *         "role": "annotator",
         *         "schema": {
         *           "format": 1,
         *           "version": 1,
         *           "title": "Pairwise preference",
         *           "inputs": [
         *             {
         *               "name": "prompt",
         *               "type": "text"
         *             },
         *             {
         *               "name": "outputs",
         *               "type": "candidates",
         *               "count": 2
         *             }
         *           ],
         *           "questions": [
         *             {
         *               "key": "preferred",
         *               "kind": "pairwise",
         *               "label": "Which is better?",
         *               "required": true,
         *               "allow_tie": true
         *             }
         *           ]
         *         },
         *         "item": {
         *           "inputs": {
         *             "prompt": "A red cube on a blue sphere",
         *             "outputs": [
         *               {
         *                 "slot": "A",
         *                 "type": "image",
         *                 "value": {
         *                   "asset": "0190d4e5f6a7b8c9d0e1f2a3b4c5d6e7"
         *                 }
         *               },
         *               {
         *                 "slot": "B",
         *                 "type": "image",
         *                 "value": {
         *                   "asset": "0190e5f6a7b8c9d0e1f2a3b4c5d6e7f8"
         *                 }
         *               }
         *             ]
         *           }
         *         }
         *       },
         *       "draft": null,
         *       "context": {}
         *     }
         */
        Claim: {
            assignment: {
                id: string;
                stage: components["schemas"]["WorkStage"];
                /** Format: date-time */
                lease_expires_at: string;
                /** @description Send it with the first draft save. */
                version: number;
                /** @description The schema version the assignment is answered with. */
                schema_version: number;
                /** @description `prefilled` when the form was prefilled from model predictions (which model is for leads only, on the item page). */
                draft_source: string | null;
            };
            item: components["schemas"]["View"];
            /** @description The saved or prefilled answers in shown order, or null. */
            draft: null | components["schemas"]["Answers"];
            /**
             * @description Stage context. `review`: `{blind}` and, unless blind, `label` (the answers under
             *     review in shown order, `submitted_at`, `time_spent_ms`). `adjudicate`: `labels` (every
             *     submitted label, rejected ones too with `counted: false`, each with the annotator's
             *     `original` answers, the `answers` that count (the reviewer's correction when there is
             *     one) and its review's verdict, correction and comments; by pseudonym such as
             *     "Annotator 1" unless the policy shows names), `disagreements`
             *     (`[{question, resolved, values}]` over the counted labels) and `consensus`
             *     (`{agreed, provenance, questions}`: per question its state and settled answer).
             *     Other stages: `{}`.
             */
            context: {
                blind?: boolean;
                label?: {
                    answers?: components["schemas"]["Answers"];
                    /** Format: date-time */
                    submitted_at?: string;
                    time_spent_ms?: number;
                };
                labels?: {
                    assignment_id: string;
                    /** @description A user id, or a pseudonym such as "Annotator 2". */
                    by: string;
                    name?: string;
                    /** @description The answers that count: the reviewer's correction when the label was corrected, else the original. */
                    answers: components["schemas"]["Answers"];
                    /** @description The label as its annotator submitted it, before any correction. */
                    original: components["schemas"]["Answers"];
                    /** @description False for a label its reviewer rejected: shown, but not part of consensus. */
                    counted: boolean;
                    review?: {
                        by: string;
                        name?: string;
                        /** @enum {string} */
                        verdict: "approve" | "correct" | "reject" | "disputed";
                        comment?: string;
                        /** @description The reviewer's note per question key. */
                        comments?: {
                            [key: string]: string;
                        };
                        /** @description The reviewer's correction (or, in a blind review, the reviewer's own answers). */
                        answers?: components["schemas"]["Answers"];
                    };
                }[] | null;
                disagreements?: {
                    question: string;
                    /** @description Settled by majority or tolerance. */
                    resolved: boolean;
                    /** @description Each label's answer, in label order and shown order. */
                    values: unknown[];
                }[];
                consensus?: {
                    agreed: boolean;
                    provenance: string;
                    /** @description Every question in schema order, as the consensus rule settled it over the counted labels. */
                    questions: {
                        question: string;
                        /**
                         * @description `unanimous` every label agrees; `tolerance` scores within the consensus
                         *     tolerance; `majority` settled by the majority rule; `no_consensus` the
                         *     adjudicator decides; `missing` the system answered "missing"; `text` free
                         *     text, never decided by the rule; `unanswered` no label answered it.
                         * @enum {string}
                         */
                        state: "unanimous" | "tolerance" | "majority" | "no_consensus" | "missing" | "text" | "unanswered";
                        /** @description The settled answer in shown order; absent when nothing was settled. */
                        answer?: unknown;
                    }[];
                };
            } & {
                [key: string]: unknown;
            };
        };
        /**
         * @description What the stage's role may see of an item. Hidden inputs (unless `visible_to` the role),
         *     inputs no question uses, item meta, the external id and candidate ids are removed for
         *     every role but the lead; candidates inputs become `[{slot, type, value}]` in this
         *     assignment's order.
         */
        View: {
            role: components["schemas"]["Role"];
            /** @description The schema reduced to the visible inputs. */
            schema: components["schemas"]["task-schema"];
            item: {
                /** @description Lead only. */
                external_id?: string;
                /** @description Visible input values by name; candidates as `[{slot, type, value}]`. */
                inputs: {
                    [key: string]: unknown;
                };
                /** @description Lead only. */
                meta?: {
                    [key: string]: unknown;
                };
            };
            /**
             * @description Questions the system answers `"missing"` because the item lacks an optional input
             *     they need (`needs`); the form shows them as answered and sends nothing for them.
             *     Omitted when none.
             */
            missing?: string[];
            pass?: components["schemas"]["PassStep"];
        };
        /**
         * @description Where a form with passes stands. A view with `pass` holds that pass's inputs and
         *     questions only: the other passes' inputs are not sent at all. Drafts and submits of the
         *     assignment take only that pass's questions (others are refused as `not_in_pass`).
         */
        PassStep: {
            /** @description The pass, counting from 1. */
            number: number;
            count: number;
            key: string;
            label: string;
            help?: string;
        };
        /** @description What a person sends to finish an assignment; answers in shown order. */
        Submission: {
            answers?: components["schemas"]["Answers"];
            /**
             * @description Review only; `correct` comes with corrected `answers`.
             * @enum {string}
             */
            verdict?: "approve" | "correct" | "reject";
            comment?: string;
            /** @description Review only: a comment per question key; unknown keys get 422. */
            comments?: {
                [key: string]: string;
            };
            /** @description Adjudication (required there). */
            rationale?: string;
            /** @description Adjudication. */
            confidence?: number | null;
            /** @description Adjudication: what kind of mistake the labels made. */
            error_category?: string;
            /** Format: int64 */
            time_spent_ms?: number;
        };
        Member: {
            user_id: string;
            email: string;
            name: string;
            roles: components["schemas"]["Role"][];
            /** @description Paused after failing gold (`gold_pause`); `queue/next` answers `403 paused` for `label` and `criteria`. */
            paused: boolean;
            /** @description Passed a calibration round of the project or was qualified by a lead (see `require_qualification`). */
            qualified: boolean;
            /** @description The languages the member reads (BCP 47); empty means every language. */
            languages: string[];
        };
        QualityReport: {
            /** Format: date-time */
            computed_at: string;
            annotators: components["schemas"]["AnnotatorQuality"][];
        };
        AnnotatorQuality: {
            user_id: string;
            name: string;
            /** @description Submitted production labels (rejected ones included). */
            labels: number;
            /** @description Median time spent per label. */
            median_seconds: number | null;
            /** @description 10th percentile of the time spent per label (nearest rank). */
            p10_seconds: number | null;
            rushed_share: number | null;
            /** @description Share of agreeing (unit, peer) comparisons on units shared with other annotators. */
            peer_agreement: number | null;
            /** @description Share of the person's ratings equal to the final ground truth. */
            truth_agreement: number | null;
            gold: {
                answered: number;
                correct: number;
                accuracy: number | null;
                /** @description Gold answers in the sliding window (at most `gold_window`, since the last pause was lifted). */
                window_answered: number;
                window_accuracy: number | null;
            };
            paused: boolean;
            /** @description Share of Yes among the Yes/No answers, per binary question. */
            yes_rate: {
                [key: string]: number;
            };
            drafts: {
                /** @description Labels that started from a model draft. */
                labels: number;
                /** @description Share of the submitted ratings equal to the draft's. */
                agreement: number | null;
                /** @description Share of drafted labels submitted exactly as drafted. */
                unchanged_share: number | null;
            };
            /** @description Estimated accuracy under the project's Dawid–Skene model, pooled and per question; `null` when none of the person's answers is to a question with categories. */
            reliability: null | (components["schemas"]["ReliabilityEstimate"] & {
                /** @description By question key. */
                questions: {
                    [key: string]: components["schemas"]["ReliabilityEstimate"];
                };
            });
            flags: {
                /** @enum {string} */
                code: "low_gold_accuracy" | "rushed" | "rubber_stamping" | "anchoring" | "low_reliability";
                reason: string;
            }[];
        };
        ReliabilityEstimate: {
            /** @description Answers the estimate rests on. */
            ratings: number;
            /** @description Expected share of the answers equal to the true value. */
            accuracy: number;
            /** @description Lower end of the 95 % Wilson interval. */
            low: number;
            /** @description Upper end of the 95 % Wilson interval. */
            high: number;
        };
        /** @description A project's balance targets; each optional. */
        BalanceTargets: {
            /** @description ρ: the No/Yes ratio every binary question must exceed (binary questions only). */
            ratio?: number;
            /** @description δ: the total-score histogram's spread must fall under it (binary questions only). */
            spread?: number;
            /** @description What to count by: a metadata key as meta.<key>, or `language` for the items' languages. */
            by?: string;
        };
        ValueCount: {
            value: string;
            count: number;
        };
        Distribution: {
            /** @description The question key, or key/item for a checklist sub-item. */
            key: string;
            label: string;
            kind: string;
            /** @description Counts per value: numeric order for Likert and checklist, most frequent first otherwise. Binary values are satisfied / not_satisfied. */
            values: components["schemas"]["ValueCount"][];
        };
        BalanceReport: {
            /** @enum {string} */
            status: "ready" | "computing";
            /** Format: date-time */
            computed_at: string | null;
            targets: components["schemas"]["BalanceTargets"];
            readiness: {
                /** @description Both targets set and met. */
                ready: boolean;
                /** @description Every ratio above the target; null without a ratio target or binary questions. */
                ratio_met: boolean | null;
                /** @description The spread under the target; null without a spread target or binary questions. */
                spread_met: boolean | null;
                /** @description Binary questions whose ratio does not exceed the target. */
                need_more_no: string[];
                /** @description Total scores whose bin needs items for the spread to fall under the target. */
                bins_need_items: number[];
            };
            /** @description Done items with ground truth. */
            items: number;
            /** @description The binary questions' balance; null when the schema has none. */
            binary: null | {
                dimensions: {
                    key: string;
                    label: string;
                    yes: number;
                    no: number;
                    open: number;
                    /** @description No/Yes; null without Yes. */
                    ratio: number | null;
                    /** @description With a ratio target. */
                    meets_ratio?: boolean;
                    /** @description With a ratio target, the No items that would make the ratio exceed it. */
                    needs_no?: number;
                }[];
                histogram: {
                    score: number;
                    count: number;
                    /** @description With a spread target. */
                    needs?: number;
                }[];
                spread: number;
                min_ratio: number | null;
                correlations: {
                    a: string;
                    b: string;
                    /** @description Pearson's r (phi) over items resolving both; null when either is constant. */
                    r: number | null;
                    flagged: boolean;
                }[];
            };
            distributions: components["schemas"]["Distribution"][];
            meta: {
                key: string;
                values: components["schemas"]["ValueCount"][];
                distinct: number;
                /** @description More than 100 values; none listed. */
                truncated: boolean;
            }[];
            /** @description Decided items per language (BCP 47; "" for items without one), most first. */
            languages: components["schemas"]["ValueCount"][];
            /** @description Position bias of each pairwise question over the submitted labels: counts by the output chosen (A, B, tie in the stored order) and by the position it was shown in (A the first shown, B the second), each label's answer mapped back through the order it was shown in. */
            positions: {
                key: string;
                label: string;
                labels: number;
                outputs: components["schemas"]["ShareCount"][];
                positions: components["schemas"]["ShareCount"][];
            }[];
        };
        ShareCount: {
            /** @enum {string} */
            value: "A" | "B" | "tie";
            count: number;
            share: number;
        };
        DatasetReport: {
            /** @description With `adaptive_overlap`: the labels spent against the fixed overlap it replaces (`baseline` labels of every item), and the ground truth's accuracy as the posteriors in its provenance estimate it; `null` otherwise. */
            adaptive: null | {
                /** @description The fixed overlap compared with (`adaptive_overlap.baseline`). */
                baseline: number;
                /** @description Production labels so far. */
                labels: number;
                /** @description `baseline` × items. */
                baseline_labels: number;
                /** @description `labels` ÷ `baseline_labels`. */
                ratio: number | null;
                /** @description Decided items whose provenance holds posteriors. */
                posteriors: number;
                /** @description Mean over those items of the probability that every answer is right (the product of their questions' posteriors). */
                estimated_accuracy: number | null;
                /** @description Mean posterior of the decided answer per question. */
                questions: {
                    [key: string]: number;
                };
            };
            /** @enum {string} */
            status: "ready" | "computing";
            /** Format: date-time */
            computed_at: string | null;
            /** @description Items outside gold and the calibration pool. */
            items: number;
            /** @description Done items with ground truth. */
            decided: number;
            stages: components["schemas"]["ValueCount"][];
            provenance: components["schemas"]["ValueCount"][];
            /** @description Dropped items per reason (unspecified when none was given). */
            dropped: components["schemas"]["ValueCount"][];
            dropped_share: number | null;
            criteria: {
                written: number;
                pending: number;
                valid: number;
                too_vague: number;
                too_specific: number;
                /** @description Share of reviewed criteria refused. */
                loss_share: number | null;
            };
            labels: number;
            labels_per_item: {
                labels: number;
                items: number;
            }[];
            reviews: components["schemas"]["ValueCount"][];
            adjudication: {
                key: string;
                label: string;
                disagreed: number;
                adjudicated: number;
                rate: number | null;
            }[];
            median_seconds: number | null;
            annotators: {
                user_id: string;
                name: string;
                labels: number;
                median_seconds: number | null;
            }[];
            scores: components["schemas"]["Distribution"][];
            /** @description Items and decided items per language (BCP 47; "" for items without one), by tag. */
            languages: {
                language: string;
                items: number;
                decided: number;
            }[];
        };
        /** @description A 95 % percentile interval, or null when no replicate was defined. */
        JudgeInterval: null | number[];
        EloRating: {
            player: string;
            rating: number;
            matches: number;
        };
        /** @description Square, in the order of questions; null cells are undetermined (fewer than two units, or a constant side). */
        CouplingMatrix: (number | null)[][];
        /** @description D3-Omni's dimension-coupling matrix (Eq. 4) of a binary checklist with two or more questions: Pearson's r of the Yes/No indicators of two questions across the units answering both, on the judge's predictions and on the reference; excess is judge minus reference (spurious coupling). yes_side and no_side correlate the judge's predictions only over the units whose reference is Yes (No) on both questions, where a prediction differing from the reference is an error: the correlation of the judge's errors on one question with its errors on the other (confirmation- and defect-side halos, Figure 4). */
        DimensionCoupling: {
            questions: string[];
            judge: components["schemas"]["CouplingMatrix"];
            reference: components["schemas"]["CouplingMatrix"];
            excess: components["schemas"]["CouplingMatrix"];
            yes_side: components["schemas"]["CouplingMatrix"];
            no_side: components["schemas"]["CouplingMatrix"];
            /** @description Question pairs whose judge correlation exceeds 0.6. */
            coupled: number;
            /** @description Question pairs whose judge correlation exceeds 0.8 (strong entanglement). */
            strong: number;
        };
        /** @description `arbiter judge-eval`'s report; figures that do not apply to the kind are absent, undefined ones null. */
        JudgeReport: {
            /** @enum {string} */
            kind: "binary" | "pairwise" | "score";
            n: number;
            n_missing: number;
            accuracy?: number | null;
            accuracy_without_ties?: number | null;
            per_class_recall?: {
                [key: string]: number;
            };
            yes_accuracy?: number | null;
            no_accuracy?: number | null;
            balanced_accuracy?: number | null;
            mcc?: number | null;
            exact_match?: number | null;
            segment_accuracy?: {
                total_score: number;
                n_units: number;
                accuracy: number;
            }[];
            total_score_deviation?: {
                mean_abs: number;
                mean_signed: number;
                share_equal: number;
            };
            coupling?: components["schemas"]["DimensionCoupling"];
            best_three_class?: {
                accuracy: number;
                threshold: number;
            };
            elo?: {
                reference: components["schemas"]["EloRating"][];
                judge: components["schemas"]["EloRating"][];
            };
            pearson?: number | null;
            spearman?: number | null;
            kendall_tau_b?: number | null;
            mse?: number | null;
            mae?: number | null;
            share_over?: number | null;
            share_under?: number | null;
            /** @description Per headline figure, the paired bootstrap of this model minus the group's best. */
            difference?: {
                [key: string]: {
                    estimate: number;
                    ci95: components["schemas"]["JudgeInterval"];
                    p_value: number | null;
                };
            };
            /** @description Per headline figure, the model's own 95 % interval. */
            ci95?: {
                [key: string]: components["schemas"]["JudgeInterval"];
            };
            notes: string[];
        };
        JudgeBoard: {
            /** @enum {string} */
            status: "ready" | "computing";
            /** Format: date-time */
            computed_at: string | null;
            cluster_key: string;
            strata_key: string;
            system_key: string;
            /** @description Every model with imported predictions. */
            models: string[];
            groups: {
                /** @description `binary` for all binary questions together, else the question key. */
                key: string;
                label: string;
                /** @enum {string} */
                kind: "binary" | "pairwise" | "score";
                questions: string[];
                /** @description Decided items with ground truth on the group. */
                items: number;
                /** @enum {string} */
                headline: "accuracy" | "pearson";
                /** @description The model with the best headline figure; empty when none is defined. */
                best: string;
                rows: {
                    model: string;
                    /** @description Why the row has no report. */
                    reason?: string;
                    report: null | components["schemas"]["JudgeReport"];
                    /** @description System-level correlations (score groups with system_key). */
                    system: null | {
                        systems: {
                            system: string;
                            items: number;
                            human: number;
                            judge: number;
                        }[];
                        pearson: number | null;
                        spearman: number | null;
                        kendall_tau_b: number | null;
                        leave_one_out: {
                            system: string;
                            pearson: number | null;
                        }[];
                    };
                    /** @description The (human, judge) score pairs with their counts (score groups). */
                    points: {
                        human: number;
                        judge: number;
                        count: number;
                    }[];
                }[];
            }[];
        };
        AgreementReport: {
            /**
             * @description `computing`: the figures are missing or older than the project's labels, and a job is refreshing them.
             * @enum {string}
             */
            status: "ready" | "computing";
            /** Format: date-time */
            computed_at: string | null;
            /** @description The schema version the figures were computed with (the current one when none were). */
            schema_version: number;
            /** @description Accepted production labels the figures were computed from. */
            labels: number;
            questions: components["schemas"]["QuestionAgreement"][];
            macro: {
                alpha: number | null;
                percent_agreement: number | null;
            };
            matrix: {
                annotators: {
                    user_id: string;
                    name: string;
                }[];
                values: (number | null)[][];
            };
        };
        QuestionAgreement: {
            key: string;
            label: string;
            /** @description The question kind. */
            type: string;
            /** @enum {string} */
            level: "nominal" | "ordinal" | "interval" | "ratio";
            /** @description Units with at least one rating. */
            n_units: number;
            n_ratings: number;
            /** @description Krippendorff's alpha. */
            alpha: number | null;
            /** @description 95 % bootstrap interval of alpha, or null. */
            alpha_ci: null | number[];
            percent_agreement: number | null;
            /** @description Nominal questions only. */
            fleiss_kappa: number | null;
            /** @description Nominal questions only. */
            gwet_ac1: number | null;
            /** @description Ordinal questions only; share of rating pairs that are equal. */
            exact: number | null;
            /** @description Ordinal questions only; share of rating pairs at most 1 apart. */
            within_one: number | null;
            /** @description Ordinal questions only; mean absolute difference of rating pairs. */
            mad: number | null;
            /** @description Binary questions only; the figures over raw Yes/No/N-A answers. */
            raw: null | {
                alpha: number | null;
                percent_agreement: number | null;
            };
        };
        CalibrationPassRule: {
            /** @enum {string} */
            metric: "accuracy_vs_gold" | "exact_with_peers" | "within_one_with_peers" | "alpha_with_peers";
            /** @description 0 to 1; -1 to 1 for `alpha_with_peers`. */
            threshold: number;
            /** @description Question keys the score is averaged over (in requests optional, default every question the metric applies to). */
            questions: string[];
        };
        /** @description Exactly one of `external_ids` and `sample`. */
        CalibrationRoundRequest: {
            /** @description 1 to 200 characters. */
            name: string;
            /** @description External ids of calibration pool items, in the order the round uses them (1 to 1000). */
            external_ids?: string[];
            /** @description This many pool items drawn at random. */
            sample?: number;
            /** @description User ids or emails of annotators of the project. */
            participants: string[];
            pass: components["schemas"]["CalibrationPassRule"];
        };
        CalibrationRound: {
            id: string;
            /** @description The round's number in its project. */
            number: number;
            name: string;
            /** @enum {string} */
            status: "open" | "closed";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            closed_at: string | null;
            pass: components["schemas"]["CalibrationPassRule"];
            /** @description Items in the round. */
            items: number;
            /** @description Everyone taking part (for a caller who is not a lead, only themselves). */
            participants: {
                user_id: string;
                name: string;
                email: string;
                /** @description Items this participant submitted. */
                done: number;
            }[];
            /** @description Submitted labels over items × participants. */
            completion: number;
        };
        CalibrationRoundDetail: components["schemas"]["CalibrationRound"] & {
            item_ids: {
                id: string;
                external_id: string;
            }[];
        };
        CalibrationPairFigures: {
            /** @description Share of shared units with equal answers. */
            exact: number | null;
            /** @description Share within ±1 (ordinal questions). */
            within_one: number | null;
            /** @description Mean absolute difference (ordinal questions). */
            mad: number | null;
            /** @description Krippendorff's α of the two annotators on this question. */
            alpha: number | null;
        };
        CalibrationAnnotatorQuestion: {
            /** @description Share of units with gold where the answer equals gold. */
            accuracy: number | null;
            /** @description Binary: accuracy on units whose gold is `yes`. */
            yes_accuracy: number | null;
            /** @description Binary: accuracy on units whose gold is `no`. */
            no_accuracy: number | null;
            /** @description Ordinal: exact agreement with gold. */
            exact: number | null;
            /** @description Ordinal: agreement with gold within ±1. */
            within_one: number | null;
            /** @description Ordinal: mean absolute difference from gold. */
            mad: number | null;
            /** @description Mean over peers of `peers[*].exact`. */
            peer_agreement: number | null;
            /** @description Figures against each peer, by user id. */
            peers: {
                [key: string]: components["schemas"]["CalibrationPairFigures"];
            };
        };
        CalibrationQuestionFigures: {
            key: string;
            label: string;
            /** @description The question's kind (likert, binary, checklist, ...). */
            type: string;
            /** @enum {string} */
            level: "nominal" | "ordinal";
            alpha: number | null;
            /** @description 95 % bootstrap interval of alpha. */
            alpha_ci: null | number[];
            /** @description Pairwise exact agreement (ordinal). */
            exact: number | null;
            /** @description Pairwise agreement within ±1 (ordinal). */
            within_one: number | null;
            /** @description Pairwise mean absolute difference (ordinal). */
            mad: number | null;
            n_units: number;
            n_ratings: number;
        };
        /**
         * @description The group's figures over the form's primary scores at once (its Likert questions, when
         *     there are two or more on one scale), each (question, item) a unit: every pair of
         *     annotators' scores counts once. RoboJudge's calibration table (Table 5) reports exact,
         *     ±1 and MAD pooled so over PA and IA.
         */
        CalibrationPooledFigures: {
            /** @description The pooled questions, in schema order. */
            questions: string[];
            alpha: number | null;
            /** @description 95 % bootstrap interval of alpha. */
            alpha_ci: null | number[];
            /** @description Pooled pairwise exact agreement. */
            exact: number | null;
            /** @description Pooled pairwise agreement within ±1. */
            within_one: number | null;
            /** @description Pooled pairwise mean absolute difference. */
            mad: number | null;
            n_units: number;
            n_ratings: number;
        };
        CalibrationTrendSeries: {
            alpha: (number | null)[];
            exact: (number | null)[];
            within_one: (number | null)[];
            mad: (number | null)[];
        };
        CalibrationReport: {
            round: components["schemas"]["CalibrationRound"];
            annotators: {
                user_id: string;
                name: string;
                items_done: number;
                /** @description Median time spent per submitted item. */
                median_seconds: number | null;
                /** @description The pass metric over the pass questions. */
                score: number | null;
                passed: boolean;
                questions: {
                    [key: string]: components["schemas"]["CalibrationAnnotatorQuestion"];
                };
            }[];
            /** @description The group's figures per question with a level of measurement, in schema order. */
            questions: components["schemas"]["CalibrationQuestionFigures"][];
            /** @description The figures over every primary score at once; null when the form has fewer than two Likert questions on one scale. */
            pooled: null | components["schemas"]["CalibrationPooledFigures"];
            /** @description Pairwise share of equal answers over the pass questions; the diagonal is 1. */
            matrix: {
                annotators: {
                    user_id: string;
                    name: string;
                }[];
                values: (number | null)[][];
            };
            /** @description Up to ten (item, question) pairs with the least agreement, most disputed first. */
            disputed: {
                item_id: string;
                external_id: string;
                question: string;
                /** @description The gold answer, or null. */
                gold: unknown;
                answers: {
                    user_id: string;
                    name: string;
                    answer: unknown;
                }[];
            }[];
            /** @description The per-question group figures of every round of the project up to this one, oldest first; one array entry per round. */
            trend: {
                rounds: number[];
                questions: {
                    [key: string]: components["schemas"]["CalibrationTrendSeries"];
                };
                /** @description The pooled figures of every round; null when the form has no pooled scores. */
                pooled: null | components["schemas"]["CalibrationTrendSeries"];
            };
            pass: components["schemas"]["CalibrationPassRule"];
        };
        CalibrationMine: {
            round: components["schemas"]["CalibrationRound"];
            score: number | null;
            passed: boolean;
            items: {
                item_id: string;
                /** @description The item's place in the round. */
                position: number;
                questions: {
                    key: string;
                    label: string;
                    /** @description The caller's answer, or null. */
                    mine: unknown;
                    /** @description The gold answer, else the majority answer, or null. */
                    reference: unknown;
                    /** @enum {string|null} */
                    reference_kind: "gold" | "majority" | null;
                    /** @description Whether the caller's answer equals the reference; null without a reference. */
                    agrees: boolean | null;
                    notes: string[];
                }[];
            }[];
        };
        Asset: {
            id: string;
            project_id: string;
            filename: string;
            content_type: string;
            /** Format: int64 */
            bytes: number;
            sha256: string;
            created_by: string;
            /** Format: date-time */
            created_at: string;
        };
        AuditEvent: {
            id: string;
            project_id: string | null;
            actor_id: string | null;
            /**
             * @example project.create
             * @example member.set
             * @example user.create
             */
            action: string;
            /** @example user:0190... */
            target: string;
            /** @description State before the change (any JSON, or null). */
            before: unknown;
            /** @description State after the change (any JSON, or null). */
            after: unknown;
            /** Format: date-time */
            created_at: string;
        };
        Item: {
            external_id: string;
            inputs: {
                [key: string]: unknown;
            };
            meta?: {
                [key: string]: unknown;
            };
        };
        Template: {
            id: string;
            name: string;
            description: string;
            /** @description Markdown. */
            guidelines: string;
            /** @description The benchmark the template follows. */
            source?: string;
            schema: components["schemas"]["task-schema"];
            /**
             * @description The policy a project made from the template starts with, as the benchmark's paper
             *     ran it (omitted when the template has none: the defaults). A creation or setup check
             *     from the template without a `workflow` gets it; a `workflow` given replaces it whole.
             */
            workflow?: components["schemas"]["WorkflowPolicy"];
            forms?: {
                key: string;
                name: string;
                description?: string;
                schema: components["schemas"]["task-schema"];
                samples?: components["schemas"]["Item"][];
            }[];
            samples: components["schemas"]["Item"][];
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "unavailable";
            checks: {
                /** @description `ok` or the error. */
                database?: string;
                /** @description `ok` or the error. */
                blobs?: string;
            };
        };
        key: string;
        /** @enum {string} */
        role: "lead" | "annotator" | "reviewer" | "adjudicator" | "viewer";
        only_binary: unknown;
        only_likert: unknown;
        only_choice: unknown;
        only_multi_choice: unknown;
        only_pairwise: unknown;
        only_ranking: unknown;
        only_checklist: unknown;
        only_text: unknown;
        only_criteria: unknown;
        only_list_edit: unknown;
        anchor: {
            value: number;
            label: string;
        };
        option: {
            key: components["schemas"]["key"];
            label: string;
            help?: string;
        };
        checklist_item: {
            key: components["schemas"]["key"];
            label: string;
            help?: string;
            /** @description Items are scored 0..max. */
            max: number;
        };
        group: {
            key: components["schemas"]["key"];
            label: string;
            help?: string;
        };
        input: {
            name: components["schemas"]["key"];
            /** @enum {string} */
            type: "text" | "markdown" | "image" | "image_list" | "video" | "audio" | "model3d" | "json" | "candidates";
            label?: string;
            help?: string;
            /** @description Removed from every view but the lead's (and the roles in visible_to). */
            hidden?: boolean;
            visible_to?: components["schemas"]["role"][];
            optional?: boolean;
            /** @description image_list only: most images. */
            max_items?: number;
            /** @description candidates only: exact number of candidates (1 for one output of any modality, 2 for a pair). */
            count?: number;
        };
        question: {
            key: components["schemas"]["key"];
            /** @description Optional stable 1-based position used by benchmark exports. */
            index?: number;
            /** @enum {string} */
            kind: "binary" | "likert" | "choice" | "multi_choice" | "pairwise" | "ranking" | "checklist" | "text" | "criteria" | "list_edit";
            label: string;
            short_label?: string;
            /** @description Guideline text shown at the point of decision. */
            help?: string;
            group?: string;
            required?: boolean;
            /**
             * @description Overrides the level of measurement derived from the kind.
             * @enum {string}
             */
            level?: "nominal" | "ordinal" | "interval" | "ratio" | "none";
            /** @description The inputs this question may see; absent or empty means all. */
            inputs?: components["schemas"]["key"][];
            /** @description The inputs without which the question cannot be answered; when an optional one is absent, the system answers "missing". */
            needs?: components["schemas"]["key"][];
            /** @description likert: lowest point; multi_choice and criteria: fewest answers; list_edit: fewest entries in the edited list. */
            min?: number;
            /** @description likert: highest point; multi_choice and criteria: most answers; list_edit: most entries in the edited list. */
            max?: number;
            anchors?: components["schemas"]["anchor"][];
            options?: components["schemas"]["option"][];
            items?: components["schemas"]["checklist_item"][];
            allow_na?: boolean;
            /**
             * @description binary: how N/A counts in analysis.
             * @enum {string}
             */
            na_means?: "missing" | "satisfied" | "not_satisfied";
            /**
             * @description binary: polarity of a yes.
             * @enum {string}
             */
            yes_means?: "satisfied" | "defect";
            allow_tie?: boolean;
            /** @description pairwise and ranking: the candidates input compared. */
            candidates?: components["schemas"]["key"];
            min_length?: number;
            max_length?: number;
            placeholder?: string;
            /** @description list_edit: the input holding the list to edit (a list of strings). */
            list?: components["schemas"]["key"];
            /** @description list_edit: when the input is an object, the key of the list in it. */
            list_key?: components["schemas"]["key"];
        } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown);
        meta_field: {
            key: components["schemas"]["key"];
            label?: string;
            help?: string;
            options?: string[];
            required?: boolean;
        };
        pass: {
            key: components["schemas"]["key"];
            label: string;
            help?: string;
            /** @description The only inputs this pass may see. */
            inputs: components["schemas"]["key"][];
            /** @description Keys of the questions asked in this pass. */
            questions: components["schemas"]["key"][];
        };
        /**
         * Arbiter task schema
         * @description The inputs of an item, who may see each one, and the questions asked about it. See docs/tasks.md. Semantic rules that JSON Schema cannot express (unique keys, anchors inside the likert range, references to declared inputs and groups) are checked by tasks.Schema.Validate.
         */
        "task-schema": {
            /**
             * @description Version of the schema language; 1.
             * @enum {integer}
             */
            format?: 1;
            /** @description The project's schema version, from 1. Bumped when a schema with annotations changes. */
            version: number;
            title?: string;
            /** @description Short task-level guidance shown above the form. */
            instructions?: string;
            groups?: components["schemas"]["group"][];
            inputs: components["schemas"]["input"][];
            questions: components["schemas"]["question"][];
            /** @description Item metadata keys the schema declares; options make a closed list checked on import. */
            meta?: components["schemas"]["meta_field"][];
            /** @description The form in steps answered in order, each seeing only its own inputs; every question belongs to exactly one pass. See docs/tasks.md, Passes. */
            passes?: components["schemas"]["pass"][];
            /**
             * @description Who answers the passes: same_person (one person, every pass of an item in order, the default) or own_queue (each pass its own queue, labelled in order by different people). See docs/tasks.md, Passes.
             * @enum {string}
             */
            pass_mode?: "same_person" | "own_queue";
            $defs: {
                key: string;
                /** @enum {string} */
                role: "lead" | "annotator" | "reviewer" | "adjudicator" | "viewer";
                group: {
                    key: components["schemas"]["key"];
                    label: string;
                    help?: string;
                };
                input: {
                    name: components["schemas"]["key"];
                    /** @enum {string} */
                    type: "text" | "markdown" | "image" | "image_list" | "video" | "audio" | "model3d" | "json" | "candidates";
                    label?: string;
                    help?: string;
                    /** @description Removed from every view but the lead's (and the roles in visible_to). */
                    hidden?: boolean;
                    visible_to?: components["schemas"]["role"][];
                    optional?: boolean;
                    /** @description image_list only: most images. */
                    max_items?: number;
                    /** @description candidates only: exact number of candidates (1 for one output of any modality, 2 for a pair). */
                    count?: number;
                };
                pass: {
                    key: components["schemas"]["key"];
                    label: string;
                    help?: string;
                    /** @description The only inputs this pass may see. */
                    inputs: components["schemas"]["key"][];
                    /** @description Keys of the questions asked in this pass. */
                    questions: components["schemas"]["key"][];
                };
                meta_field: {
                    key: components["schemas"]["key"];
                    label?: string;
                    help?: string;
                    options?: string[];
                    required?: boolean;
                };
                anchor: {
                    value: number;
                    label: string;
                };
                option: {
                    key: components["schemas"]["key"];
                    label: string;
                    help?: string;
                };
                checklist_item: {
                    key: components["schemas"]["key"];
                    label: string;
                    help?: string;
                    /** @description Items are scored 0..max. */
                    max: number;
                };
                question: {
                    key: components["schemas"]["key"];
                    /** @description Optional stable 1-based position used by benchmark exports. */
                    index?: number;
                    /** @enum {string} */
                    kind: "binary" | "likert" | "choice" | "multi_choice" | "pairwise" | "ranking" | "checklist" | "text" | "criteria" | "list_edit";
                    label: string;
                    short_label?: string;
                    /** @description Guideline text shown at the point of decision. */
                    help?: string;
                    group?: string;
                    required?: boolean;
                    /**
                     * @description Overrides the level of measurement derived from the kind.
                     * @enum {string}
                     */
                    level?: "nominal" | "ordinal" | "interval" | "ratio" | "none";
                    /** @description The inputs this question may see; absent or empty means all. */
                    inputs?: components["schemas"]["key"][];
                    /** @description The inputs without which the question cannot be answered; when an optional one is absent, the system answers "missing". */
                    needs?: components["schemas"]["key"][];
                    /** @description likert: lowest point; multi_choice and criteria: fewest answers; list_edit: fewest entries in the edited list. */
                    min?: number;
                    /** @description likert: highest point; multi_choice and criteria: most answers; list_edit: most entries in the edited list. */
                    max?: number;
                    anchors?: components["schemas"]["anchor"][];
                    options?: components["schemas"]["option"][];
                    items?: components["schemas"]["checklist_item"][];
                    allow_na?: boolean;
                    /**
                     * @description binary: how N/A counts in analysis.
                     * @enum {string}
                     */
                    na_means?: "missing" | "satisfied" | "not_satisfied";
                    /**
                     * @description binary: polarity of a yes.
                     * @enum {string}
                     */
                    yes_means?: "satisfied" | "defect";
                    allow_tie?: boolean;
                    /** @description pairwise and ranking: the candidates input compared. */
                    candidates?: components["schemas"]["key"];
                    min_length?: number;
                    max_length?: number;
                    placeholder?: string;
                    /** @description list_edit: the input holding the list to edit (a list of strings). */
                    list?: components["schemas"]["key"];
                    /** @description list_edit: when the input is an object, the key of the list in it. */
                    list_key?: components["schemas"]["key"];
                } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown);
                only_binary: unknown;
                only_likert: unknown;
                only_choice: unknown;
                only_multi_choice: unknown;
                only_pairwise: unknown;
                only_ranking: unknown;
                only_checklist: unknown;
                only_text: unknown;
                only_list_edit: unknown;
                only_criteria: unknown;
            };
        };
    };
    responses: {
        /** @description `invalid_json`: the body is empty, malformed, has unknown fields, or fields of the wrong type (details may name `field` or `offset`). */
        InvalidJSON: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `unsupported_media_type`: the body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `validation_failed`: `details` maps each invalid field (or question key) to `{code, message}`. */
        ValidationFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description `unauthorized`: missing or invalid bearer token; `token_expired`: the access token expired, refresh it. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `forbidden`: the caller lacks the administrator flag or the project role this needs; `insufficient_scope`: the personal access token lacks the scope this needs (or the operation is for sessions only). */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `not_found`: it does not exist, or the caller may not know that it does. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `forbidden`: the link is not signed by this server, has expired, or its person may no longer read the project's releases (removed, without the lead or viewer role, or disabled). */
        BadLink: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `too_many_jobs`: the project already has as many of these jobs queued or running as one project may (3 releases, 4 background imports); `details.limit` says how many. Try again once one has finished (`Retry-After`). */
        TooManyJobs: {
            headers: {
                /** @description Seconds to wait before trying again. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `no_schema`: the project has no task schema yet; set one with `PATCH /api/v1/projects/{pid}`. */
        NoSchema: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "no_schema",
                 *         "message": "this project has no task schema yet; set one with PATCH",
                 *         "details": null
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `unsupported_media_type`: the body is not `application/x-ndjson` (or `application/jsonl`, `application/ndjson`, `application/json-seq`). */
        NotNDJSON: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `payload_too_large`: the body exceeds `--max-upload-bytes`; batches of 500 lines stored before that are kept. */
        ImportTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `release_not_done`: the release is queued, running or failed; only a done release has files. */
        ReleaseNotDone: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `not_found`: no such assignment of the caller, or the caller is no longer a member of its project. */
        AssignmentNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `lease_lost`: the lease expired and the slot went to someone else; `already_submitted`;
         *     `conflict`: the assignment is no longer open (skipped, flagged or expired); `no_schema`;
         *     `has_draft`: a release of an assignment with saved answers.
         */
        AssignmentConflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description Project id. Non-members get 404 for every path under it. */
        pid: string;
        /** @description Template id, e.g. `d3omni-t2i`. */
        templateID: string;
        /** @description Item id (not the external id). */
        itemID: string;
        /** @description Release id. */
        releaseID: string;
        /** @description The person the link was signed for. */
        linkUser: string;
        /** @description Expiry (Unix seconds). */
        linkExp: string;
        /** @description HMAC-SHA256 signature. */
        linkSig: string;
        /** @description Calibration round id. */
        roundID: string;
        /** @description Webhook id. */
        webhookID: string;
        /** @description An assignment id of the caller; other people's assignments answer 404. */
        assignmentID: string;
    };
    requestBodies: never;
    headers: {
        /** @description `arbiter_refresh=<token>; Path=/api/v1/auth/refresh; HttpOnly; Secure; SameSite=Strict` (or cleared with `Max-Age=0`). */
        RefreshCookie: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Logged in; the refresh token is in the `arbiter_refresh` cookie. */
            200: {
                headers: {
                    "Set-Cookie": components["headers"]["RefreshCookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            /** @description `unauthorized`: email or password is wrong (or the account is disabled). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            /** @description `rate_limited`: this address failed on this account and must wait, or is over its limit. */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refresh: {
        parameters: {
            query?: never;
            header: {
                /** @description Any value; a cross-site form cannot send it. */
                "X-Arbiter-CSRF": string;
            };
            path?: never;
            cookie: {
                /** @description The refresh token (`arb_rt_...`). */
                arbiter_refresh: string;
            };
        };
        requestBody?: never;
        responses: {
            /** @description A new access token; a new refresh token in the cookie. */
            200: {
                headers: {
                    "Set-Cookie": components["headers"]["RefreshCookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /**
             * @description `unauthorized`: no cookie, or the refresh token is unknown, expired or revoked;
             *     `refresh_token_reused`: it was used before, and its family is now revoked. The cookie
             *     is cleared.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `csrf_rejected`: the request lacks `X-Arbiter-CSRF` or comes from another site. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Logged out. */
            204: {
                headers: {
                    "Set-Cookie": components["headers"]["RefreshCookie"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    new_password: components["schemas"]["NewPassword"];
                };
            };
        };
        responses: {
            /** @description The password is set; sign in with it. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `reset_link_invalid`: the link is unknown, used, replaced or expired; `invalid_json`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: components["schemas"]["NewPassword"];
                };
            };
        };
        responses: {
            /** @description Changed; a new access token and refresh cookie. */
            200: {
                headers: {
                    "Set-Cookie": components["headers"]["RefreshCookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`: `current_password` is wrong (`wrong_password`) or `new_password` breaks a rule (`too_short`, `too_long`, `too_common`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `rate_limited`: too many wrong current passwords from this address. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    updateMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    locale?: components["schemas"]["Locale"];
                };
            };
        };
        responses: {
            /** @description The caller, changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`: `locale` is not one of the languages (details: `{"locale": {"code": "invalid_locale"}}`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens, oldest first; the secret itself is never shown again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalAccessToken"][];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description What the token may do; `admin` only for administrators. */
                    scopes: components["schemas"]["Scope"][];
                    /**
                     * @description 0 means the token does not expire.
                     * @default 0
                     */
                    expires_in_days?: number;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalAccessToken"] & {
                        /** @description The secret, shown only this once. */
                        token: string;
                    };
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    name: string;
                    password: components["schemas"]["NewPassword"];
                    /** @default false */
                    is_admin?: boolean;
                    /**
                     * @description Lets the user create projects.
                     * @default false
                     */
                    can_create_projects?: boolean;
                    locale?: components["schemas"]["Locale"];
                };
            };
        };
        responses: {
            /** @description Created; the email is stored in lower case. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `conflict`: a user with this email exists (details: `{"email": {"code": "taken"}}`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    listProjects: {
        parameters: {
            query?: {
                /** @description `true` lists the archived projects instead of the active ones. */
                archived?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Projects with the caller's roles in each. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"][];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed; 1 to 200 characters. */
                    name: string;
                    description?: string;
                    /** @description Markdown guidelines shown to everyone who works on the project. */
                    guidelines?: string;
                    /**
                     * @description A built-in template id (`GET /api/v1/templates`); not together with `schema`.
                     * @example d3omni-t2i
                     */
                    template?: string;
                    /** @description An explicit task schema (see docs/tasks.md); not together with `template`. */
                    schema?: components["schemas"]["task-schema"];
                    /** @description Extra forms keyed by form key (e.g. the criteria-authoring form); only with `schema`. */
                    forms?: {
                        [key: string]: components["schemas"]["task-schema"];
                    };
                    workflow?: components["schemas"]["WorkflowPolicy"];
                };
            };
        };
        responses: {
            /** @description Created, with the stored schema and the policy with defaults filled in. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectDetail"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            415: components["responses"]["UnsupportedMediaType"];
            /**
             * @description `validation_failed`: `details` is keyed by field path: `name`, `description`,
             *     `template` (`conflict` when both template and schema are given, `unknown_template`),
             *     `schema.<path>` and `forms.<key>.<path>` for schema errors, `workflow.<field>` for
             *     policy errors (e.g. `workflow.overlap`, `workflow.criteria_stage.form`).
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "validation_failed",
                     *         "message": "some answers are invalid",
                     *         "details": {
                     *           "workflow.overlap": {
                     *             "code": "out_of_range",
                     *             "message": "overlap must be 1 to 50"
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    validateSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    guidelines?: string;
                    template?: string;
                    schema?: components["schemas"]["task-schema"];
                    forms?: {
                        [key: string]: components["schemas"]["task-schema"];
                    };
                    workflow?: components["schemas"]["WorkflowPolicy"];
                };
            };
        };
        responses: {
            /** @description The verdict; valid with the policy's defaults filled in, or the problems. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "valid": false,
                     *       "errors": [
                     *         {
                     *           "field": "schema.questions[0].max",
                     *           "code": "out_of_range",
                     *           "message": "max must be above min with at most 101 points, got 5..1"
                     *         },
                     *         {
                     *           "field": "workflow.overlap",
                     *           "code": "out_of_range",
                     *           "message": "overlap must be 1 to 50"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        valid: true;
                        workflow: components["schemas"]["WorkflowPolicy"];
                    } | {
                        /** @constant */
                        valid: false;
                        errors: components["schemas"]["SetupProblem"][];
                    };
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            /** @description `validation_failed`: text no database could store (a NUL character, invalid UTF-8), at its field, as for every JSON body. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    projectStorage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage and quota. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Storage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    setStorageQuota: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    quota_bytes: number | null;
                };
            };
        };
        responses: {
            /** @description Usage and the new quota. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Storage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    archiveProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    archived: boolean;
                };
            };
        };
        responses: {
            /** @description The project as stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** Format: date-time */
                        archived_at: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    listSchemaVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        version: number;
                        hash: string;
                        created_by: string;
                        /** Format: date-time */
                        created_at: string;
                        /** @description Assignments claimed with this version. */
                        assignments: number;
                        /** @description Of those, the submitted ones. */
                        submitted: number;
                    }[];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    stuckWork: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stuck work per stage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        stages: {
                            stage: components["schemas"]["WorkStage"];
                            count: number;
                            count_capped: boolean;
                            reason: string;
                            /** @description Set when the work is stuck because no member with the stage's role reads this language (BCP 47). */
                            language?: string;
                            /** @description The first waiting items (labels for reviews). */
                            ids: string[];
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
        };
    };
    stuckCandidates: {
        parameters: {
            query: {
                stage: components["schemas"]["WorkStage"];
                /** @description The waiting item, or for `review` the waiting label (an id of `GET .../stuck`). */
                id: string;
            };
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members who may take the work. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        candidates: {
                            user_id: string;
                            email: string;
                            name: string;
                            roles: components["schemas"]["Role"][];
                            /** @description The member has the stage's role; when false, handing the work over adds it (`grant_role`). */
                            has_role: boolean;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    assignStuckWork: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    stage: components["schemas"]["WorkStage"];
                    /** @description The waiting item, or for `review` the waiting label. */
                    id: string;
                    /** @description A user id or an email address. */
                    user: string;
                    /**
                     * @description Add the stage's role (annotator, reviewer or adjudicator) to a member who lacks it, or invite a non-member with it.
                     * @default false
                     */
                    grant_role?: boolean;
                };
            };
        };
        responses: {
            /** @description The work is held for the person, or the person was invited. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "assigned" | "invited";
                        /** @description Omitted when invited. */
                        user_id?: string;
                        email?: string;
                        role: components["schemas"]["Role"];
                        /** @description The role was added (or offered in the invitation) by this call. */
                        role_added: boolean;
                        /** @description The assignment held for the person; omitted when invited. */
                        assignment?: {
                            id: string;
                            item_id: string;
                            stage: components["schemas"]["WorkStage"];
                            /** @description For reviews: the label under review. */
                            target_id?: string;
                            /**
                             * Format: date-time
                             * @description Until when the work waits for this person.
                             */
                            lease_expires_at: string;
                        };
                    };
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    projectFeasibility: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Member counts by role and the warnings (empty when the work can finish). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        annotators: number;
                        reviewers: number;
                        adjudicators: number;
                        warnings: {
                            /** @enum {string} */
                            code: "annotators" | "authors_label" | "checklist_refiner" | "criteria_authors" | "criteria_reviewers" | "qualified" | "reviewers" | "adjudicators";
                            message: string;
                            needed: number;
                            have: number;
                            /** @description Set when the shortfall is among the members who read this language: the items in it cannot finish. */
                            language?: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project with the caller's roles, its current schema and forms, and its workflow policy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectDetail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
        };
    };
    deleteProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The project's name. */
                    confirm: string;
                };
            };
        };
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `validation_failed`: `details.confirm` (`mismatch`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    patchProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed; 1 to 200 characters. */
                    name?: string;
                    description?: string;
                    guidelines?: string;
                    /** @description The new task schema; its `version` is set by the server. */
                    schema?: components["schemas"]["task-schema"];
                    /** @description The extra forms that go with `schema`, keyed by form key. */
                    forms?: {
                        [key: string]: components["schemas"]["task-schema"];
                    };
                    /** @description Replaces the whole policy (unset fields get their defaults, not their old values). */
                    workflow?: components["schemas"]["WorkflowPolicy"];
                    /** @description Replaces the balance targets; a ratio or spread needs binary questions (`balance.ratio`, `balance.spread`: `not_binary`). */
                    balance?: components["schemas"]["BalanceTargets"];
                };
            };
        };
        responses: {
            /** @description The project as stored now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectDetail"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            415: components["responses"]["UnsupportedMediaType"];
            /**
             * @description `validation_failed`: `details` is keyed by `name`, `schema.<path>`,
             *     `forms.<key>.<path>` or `workflow.<field>`.
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    getProjectStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "stage": "done",
                     *           "flagged": false,
                     *           "count": 120
                     *         },
                     *         {
                     *           "stage": "label",
                     *           "flagged": false,
                     *           "count": 75
                     *         },
                     *         {
                     *           "stage": "label",
                     *           "flagged": true,
                     *           "count": 2
                     *         }
                     *       ],
                     *       "throughput": [
                     *         {
                     *           "user_id": "0190a1b2c3d4e5f6a7b8c9d0e1f2a3b4",
                     *           "name": "Ada",
                     *           "stage": "label",
                     *           "submitted": 64,
                     *           "today": 12
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ProjectStats"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    listItems: {
        parameters: {
            query?: {
                /** @description Only items in this stage. */
                stage?: components["schemas"]["ItemStage"];
                /** @description Only flagged (`true`) or unflagged (`false`) items. */
                flagged?: boolean;
                /** @description Only the item with this external id. */
                external_id?: string;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["LeadItem"][];
                        /** @description Cursor of the next page; empty when this page was the last. */
                        next_cursor: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `validation_failed`: `details.limit` (`out_of_range`) or `details.flagged` (`invalid_value`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    importItems: {
        parameters: {
            query?: {
                /** @description `calibration`: import into the calibration pool. */
                pool?: "calibration";
                /** @description `true`: store the file and import it in the background; answers 202 with a `BackgroundImport` and its `Location`. */
                async?: boolean;
                /** @description With `async=true`, the file's name, shown in the list of imports. */
                filename?: string;
            };
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        /** @description `application/jsonl`, `application/ndjson` and `application/json-seq` are accepted as well. */
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    media?: string;
                    /** Format: binary */
                    items: string;
                };
                /**
                 * @example {"external_id": "prompt-0001", "inputs": {"prompt": "A red cube on a blue sphere", "image": {"asset": "0190a1b2c3d4e5f6a7b8c9d0e1f2a3b4"}}, "meta": {"generator": "model-x"}}
                 *     {"external_id": "prompt-0002", "inputs": {"prompt": "Two cats"}, "ground_truth": {"answers": {"count_correct": "yes"}, "provenance": "constructed", "note": "built with two cats"}}
                 */
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description What the import did, with each refused line. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description Queued for a background import (with `async=true`); poll the `Location`. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackgroundImport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            413: components["responses"]["ImportTooLarge"];
            415: components["responses"]["NotNDJSON"];
            /** @description `validation_failed`: `details.pool` (`invalid_value`: not `calibration`, or with `async`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            429: components["responses"]["TooManyJobs"];
        };
    };
    getItemSample: {
        parameters: {
            query?: {
                /** @description `calibration`: the format of a calibration pool import. */
                pool?: "calibration";
            };
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import format. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemSample"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            /** @description `validation_failed`: `details.pool` (`invalid_value`: not `calibration`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    getItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Item id (not the external id). */
                iid: components["parameters"]["itemID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The item. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        item: components["schemas"]["LeadItem"];
                        /** @description Every ground-truth revision, oldest first. */
                        ground_truth_history: components["schemas"]["GroundTruthRevision"][];
                        /** @description Criteria written for this item (at most 1000), oldest first. */
                        criteria: components["schemas"]["Criterion"][];
                        /** @description Imported model predictions, by model name. */
                        predictions: components["schemas"]["Prediction"][];
                        /** @description The D3-Omni seed family of an item whose meta has a seed_id: every item of the project with the same seed_id (at most 200), the seed (meta is_seed) first, with the dimensions its perturbation flips (meta flip_set) and its operator. Null without a seed_id. */
                        family: null | {
                            seed_id: string;
                            truncated: boolean;
                            members: {
                                id: string;
                                external_id: string;
                                stage: string;
                                is_seed: boolean;
                                flip_set: string[];
                                operator?: string;
                            }[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    resolveItemFlag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Item id (not the external id). */
                iid: components["parameters"]["itemID"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "action": "drop",
                 *       "note": "the video does not play in any browser"
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    action: "return" | "drop";
                    /** @description The lead's note; kept in the audit trail and the drop reason. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Resolved. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `conflict`: the item is not flagged; `no_schema`: the project has no task schema. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`: `details.action` (`invalid_value`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    importPredictions: {
        parameters: {
            query?: {
                /** @description `true`: store the file and import it in the background; answers 202 with a `BackgroundImport` and its `Location`. */
                async?: boolean;
                /** @description With `async=true`, the file's name, shown in the list of imports. */
                filename?: string;
            };
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        /** @description `application/jsonl`, `application/ndjson` and `application/json-seq` are accepted as well. */
        requestBody: {
            content: {
                /**
                 * @example {"external_id": "prompt-0001", "model": "judge-a", "answers": {"physical_adherence": 4, "count_correct": "yes"}}
                 *     {"external_id": "prompt-0001", "model": "judge-b", "answers": {"physical_adherence": 3}}
                 */
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description What the import did, with each refused line. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "lines": 3,
                     *       "imported": 2,
                     *       "updated": 0,
                     *       "unchanged": 0,
                     *       "errors": [
                     *         {
                     *           "line": 3,
                     *           "error": "no item with external_id \"prompt-9999\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description Queued for a background import (with `async=true`); poll the `Location`. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackgroundImport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            413: components["responses"]["ImportTooLarge"];
            415: components["responses"]["NotNDJSON"];
            429: components["responses"]["TooManyJobs"];
        };
    };
    listImports: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up to 50 imports. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["BackgroundImport"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                imid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackgroundImport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    myProgress: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per stage the project uses. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "stages": [
                     *         {
                     *           "stage": "label",
                     *           "done_today": 42,
                     *           "done_total": 310,
                     *           "available": 1000,
                     *           "available_capped": true
                     *         },
                     *         {
                     *           "stage": "review",
                     *           "done_today": 0,
                     *           "done_total": 12,
                     *           "available": 0,
                     *           "available_capped": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        stages: {
                            /** @enum {string} */
                            stage: "criteria" | "checklist" | "label" | "review" | "adjudicate";
                            /** @description Submitted since midnight UTC. */
                            done_today: number;
                            done_total: number;
                            /** @description Work the caller could still be given in the stage (counted up to 1000). */
                            available: number;
                            /** @description The count stopped at 1000. */
                            available_capped: boolean;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
        };
    };
    myRejections: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rejected labels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "label_id": "0190c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
                     *           "submitted_at": "2026-12-06T10:00:00Z",
                     *           "reviewed_at": "2026-12-06T11:30:00Z",
                     *           "comment": "The count is wrong: there are three cats.",
                     *           "comments": {
                     *             "count_correct": "look at the left edge"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        items: {
                            /** @description The id of the caller's label assignment. */
                            label_id: string;
                            /**
                             * Format: date-time
                             * @description When the caller submitted the label.
                             */
                            submitted_at: string | null;
                            /**
                             * Format: date-time
                             * @description When the review rejected it.
                             */
                            reviewed_at: string | null;
                            /** @description The reviewer's reason; empty when they gave none. */
                            comment: string;
                            /** @description The reviewer's comments per question key, on questions the label answered. */
                            comments?: {
                                [key: string]: string;
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
        };
    };
    listCriteria: {
        parameters: {
            query?: {
                /** @description Only criteria with this status; an empty value lists every status. */
                status?: "pending" | "valid" | "too_vague" | "too_specific" | "duplicate" | "";
                /** @description Only criteria of this item. */
                item_id?: string;
            };
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description At most 500 criteria, with the items they were written for. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Criterion"][];
                        /** @description Each listed criterion's item by item id, as the caller sees it in the criteria form (a reviewer blinded like the authors, a lead in full): what the criteria were written about. Empty in a project without a criteria stage. */
                        inputs: {
                            [key: string]: components["schemas"]["View"];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    criteriaReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        overlap: number;
                        items: number;
                        authorships: number;
                        total: number;
                        by_status: {
                            pending: number;
                            valid: number;
                            too_vague: number;
                            too_specific: number;
                            duplicate: number;
                        };
                        authors: {
                            user_id: string;
                            name: string;
                            email: string;
                            total: number;
                            by_status: {
                                pending: number;
                                valid: number;
                                too_vague: number;
                                too_specific: number;
                                duplicate: number;
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
        };
    };
    reviewCriterion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Criterion id. */
                cid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "valid" | "too_vague" | "too_specific" | "duplicate";
                    /** @description With `duplicate` (and only then): the criterion of the same item this one repeats, not itself a duplicate. */
                    duplicate_of?: string;
                };
            };
        };
        responses: {
            /** @description The criterion as marked (with `child_item_id` when valid). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Criterion"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `already_submitted`: the criterion was already marked; `no_schema`: the project has no task schema. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`: `details.status` (`invalid_value`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    listCalibrationRounds: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rounds. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        rounds: components["schemas"]["CalibrationRound"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    createCalibrationRound: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Round 1",
                 *       "sample": 20,
                 *       "participants": [
                 *         "ann@example.org",
                 *         "0190a1b2c3d4e5f6a7b8c9d0e1f2a3b4"
                 *       ],
                 *       "pass": {
                 *         "metric": "within_one_with_peers",
                 *         "threshold": 0.8,
                 *         "questions": [
                 *           "physical_adherence"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CalibrationRoundRequest"];
            };
        };
        responses: {
            /** @description The round. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalibrationRound"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            415: components["responses"]["UnsupportedMediaType"];
            /**
             * @description `validation_failed`: `details` names each bad field: `name`, `external_ids` /
             *     `external_ids[i]` (`not_in_pool`, `duplicate`), `sample` (`out_of_range`; `empty_pool` when
             *     the calibration pool has no items),
             *     `participants[i]` (`not_annotator`, `duplicate`), `pass.metric`, `pass.threshold`
             *     (`out_of_range`), `pass.questions[i]` (`unknown_question`, `not_ordinal`).
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    getCalibrationRound: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Calibration round id. */
                rid: components["parameters"]["roundID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The round and its items in round order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalibrationRoundDetail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    closeCalibrationRound: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Calibration round id. */
                rid: components["parameters"]["roundID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The closed round. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalibrationRound"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `round_closed`: the round is already closed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCalibrationReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Calibration round id. */
                rid: components["parameters"]["roundID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalibrationReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    addCalibrationNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Calibration round id. */
                rid: components["parameters"]["roundID"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "item_id": "0190a1b2c3d4e5f6a7b8c9d0e1f2a3b4",
                 *       "question": "physical_adherence",
                 *       "note": "The cube passes through the gripper at 0:02: that is a 2."
                 *     }
                 */
                "application/json": {
                    /** @description An item of the round. */
                    item_id: string;
                    /** @description A question key of the schema. */
                    question: string;
                    note: string;
                };
            };
        };
        responses: {
            /** @description The note was stored. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                    };
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `round_open`: notes are written after the round is closed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`: `details.item_id` (`not_in_round`), `details.question` (`unknown_question`) or `details.note` (`invalid_length`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    getMyCalibrationResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Calibration round id. */
                rid: components["parameters"]["roundID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalibrationMine"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `round_open`: results are shown once the round is closed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    queueNext: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "stage": "label"
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    stage: "label" | "review" | "adjudicate" | "criteria" | "checklist" | "calibration";
                    /**
                     * @description The work after the current one.
                     * @default false
                     */
                    prefetch?: boolean;
                };
            };
        };
        responses: {
            /** @description The claimed assignment and what the caller may see of its item. */
            200: {
                headers: {
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Claim"];
                };
            };
            /** @description Nothing is left to claim in this stage for the caller. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            /** @description `forbidden`: the caller's project roles do not include the stage's role. `paused`: the caller failed gold and a lead has not lifted the pause (`label` and `criteria`). `not_qualified`: `label` work needs a qualification first (`require_qualification`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`: `details.stage` (`invalid_value`): not a stage, or a stage this project's workflow does not have. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    projectQuality: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The figures, by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QualityReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
        };
    };
    projectAgreement: {
        parameters: {
            query?: {
                /** @description The stage whose work is compared; only `label`. */
                stage?: "label";
                /** @description Comma-separated question keys; all questions with a level when left out. */
                questions?: string;
            };
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The figures, in schema order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgreementReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            /** @description `validation_failed`: `details.stage` (`invalid_value`) or `details.questions` (`unknown_question`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    projectBalance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balance. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalanceReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
        };
    };
    projectReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatasetReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
        };
    };
    projectJudges: {
        parameters: {
            query?: {
                /** @description Item metadata key whose values cluster items in the bootstrap. */
                cluster_key?: string;
                /** @description Item metadata key whose values stratify the bootstrap. */
                strata_key?: string;
                /** @description Item metadata key naming the system (generator) of each item. */
                system_key?: string;
            };
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The leaderboards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JudgeBoard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            /** @description `validation_failed`: `details.cluster_key`, `details.strata_key` or `details.system_key` (`missing_meta`) when some decided items lack the key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Members, by email. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
        };
    };
    setMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description A user id, or an email address. */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Left out, the roles stay as they are. */
                    roles?: components["schemas"]["Role"][];
                    /**
                     * @description `false` lifts a pause (audited `member.unpause`; the gold window starts over),
                     *     `true` pauses the member by hand (`member.pause`). Members only.
                     */
                    paused?: boolean;
                    qualified?: boolean;
                    /** @description The languages the member reads (BCP 47); empty for every language. */
                    languages?: string[];
                };
            };
        };
        responses: {
            /** @description What was done, with the roles in canonical order and without duplicates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description `updated`: only the pause changed.
                         * @enum {string}
                         */
                        status: "added" | "invited" | "removed" | "updated";
                        /** @description The member's qualification; only for members. */
                        qualified?: boolean;
                        /** @description Only when the person is (or was) a member. */
                        user_id?: string;
                        email: string;
                        name?: string;
                        roles: components["schemas"]["Role"][];
                        /** @description Whether the member is paused, when the person is a member. */
                        paused?: boolean;
                        /** @description The languages the member reads, when the change named them, a pause or a qualification. */
                        languages?: string[];
                    };
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `last_lead`: the project would have no lead. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description By email. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        project_id: string;
                        email: string;
                        roles: components["schemas"]["Role"][];
                        invited_by: string;
                        /** Format: date-time */
                        created_at: string;
                    }[];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    myInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        project_id: string;
                        project_name: string;
                        roles: components["schemas"]["Role"][];
                        /** @description The inviter's name. */
                        invited_by: string;
                        /** Format: date-time */
                        created_at: string;
                    }[];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                iid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Joined. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
        };
    };
    declineInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                iid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Declined. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
        };
    };
    setPermissions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    can_create_projects: boolean;
                };
            };
        };
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    issuePasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The secret (`arb_reset_...`), shown only this once. */
                        token: string;
                        /** @description The web UI's page for it: `/reset-password#token=...` (in the fragment, which browsers send nowhere). */
                        path: string;
                        /** Format: date-time */
                        expires_at: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    disableUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `own_account`: administrators cannot disable their own account. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enableUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    uploadAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Stored. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Asset"];
                };
            };
            /** @description `bad_request`: not a multipart body, malformed, or no `file` part. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `payload_too_large`: the file exceeds `--max-upload-bytes`. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAudit: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AuditEvent"][];
                    };
                };
            };
            /** @description `bad_request`: limit is not 1 to 1000. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    listReleases: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up to 200 releases, without their manifests (done ones carry a `summary`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Release"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    createRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "v1",
                 *       "formats": [
                 *         "jsonl",
                 *         "hf",
                 *         "robojudge"
                 *       ],
                 *       "options": {
                 *         "split_ratios": "train=0.8,test=0.2",
                 *         "cluster_key": "source_clip",
                 *         "raw": true
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ReleaseRequest"];
            };
        };
        responses: {
            /** @description Queued; poll the `Location`. */
            202: {
                headers: {
                    /** @description The release's URL. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Release"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NoSchema"];
            /** @description `quota_exceeded`: the project's storage quota is used up (its releases count toward it). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyJobs"];
            /** @description `unavailable`: this server runs no background jobs. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Release id. */
                rid: components["parameters"]["releaseID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The release. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Release"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getReleaseFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Release id. */
                rid: components["parameters"]["releaseID"];
                /** @description The file's path in the release, e.g. `jsonl/test.jsonl` (may contain slashes). */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file; its type by extension (`application/json`, `application/x-ndjson`, `text/csv`, `application/vnd.apache.parquet`, `text/markdown`, or the media's own). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "application/json": unknown;
                };
            };
            /** @description Part of the file (range request). */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description With the S3 blob store, a redirect to a signed URL of the file. */
            302: {
                headers: {
                    /** @description The signed URL. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ReleaseNotDone"];
        };
    };
    getReleaseArchive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Release id. */
                rid: components["parameters"]["releaseID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The zip. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ReleaseNotDone"];
        };
    };
    getReleaseLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Release id. */
                rid: components["parameters"]["releaseID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The links. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReleaseLinks"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ReleaseNotDone"];
        };
    };
    getSignedReleaseArchive: {
        parameters: {
            query: {
                /** @description The person the link was signed for. */
                u: components["parameters"]["linkUser"];
                /** @description Expiry (Unix seconds). */
                exp: components["parameters"]["linkExp"];
                /** @description HMAC-SHA256 signature. */
                sig: components["parameters"]["linkSig"];
            };
            header?: never;
            path: {
                /** @description Release id. */
                rid: components["parameters"]["releaseID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The zip. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            403: components["responses"]["BadLink"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ReleaseNotDone"];
        };
    };
    getSignedReleaseFile: {
        parameters: {
            query: {
                /** @description The person the link was signed for. */
                u: components["parameters"]["linkUser"];
                /** @description Expiry (Unix seconds). */
                exp: components["parameters"]["linkExp"];
                /** @description HMAC-SHA256 signature. */
                sig: components["parameters"]["linkSig"];
            };
            header?: never;
            path: {
                /** @description Release id. */
                rid: components["parameters"]["releaseID"];
                /** @description The file's path in the release (may contain slashes). */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, as an attachment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "application/json": unknown;
                };
            };
            /** @description Part of the file (range request). */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description With the S3 blob store, a redirect to a signed URL of the file, valid for one minute. */
            302: {
                headers: {
                    /** @description The signed URL. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            403: components["responses"]["BadLink"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ReleaseNotDone"];
        };
    };
    getAssetURL: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                aid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The URL. */
            200: {
                headers: {
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        url: string;
                        /** Format: date-time */
                        expires_at: string;
                        content_type: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description `hidden_in_pass`: the caller's open pass does not show the input this file belongs to. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
        };
    };
    saveDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "version": 3,
                 *       "answers": {
                 *         "physical_adherence": 4,
                 *         "preferred": "B"
                 *       }
                 *     }
                 */
                "application/json": {
                    answers?: components["schemas"]["Answers"];
                    /** @description The version the draft was loaded or last saved at. */
                    version: number;
                };
            };
        };
        responses: {
            /** @description Saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "version": 4
                     *     }
                     */
                    "application/json": {
                        /** @description The new version; send it with the next save. */
                        version: number;
                    };
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            /**
             * @description `stale_version`: the draft changed since that version (`details.current_version`);
             *     `already_submitted`; `conflict`: the assignment is no longer open (skipped, flagged
             *     or expired); `no_schema`.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`: `details.version` (`required`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    heartbeat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Renewed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        lease_expires_at: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            409: components["responses"]["AssignmentConflict"];
        };
    };
    skipAssignment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "outside my expertise"
                 *     }
                 */
                "application/json": {
                    /** @description Optional; trimmed. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Skipped. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            409: components["responses"]["AssignmentConflict"];
            415: components["responses"]["UnsupportedMediaType"];
        };
    };
    releaseAssignment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Released. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            409: components["responses"]["AssignmentConflict"];
        };
    };
    flagAssignment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "category": "broken_media",
                 *       "reason": "the second video is black"
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    category: "broken_media" | "unsafe_content" | "wrong_modality" | "other";
                    /** @description What is wrong; required (not blank) with `other`. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Flagged. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            409: components["responses"]["AssignmentConflict"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`: `details.category` (`invalid_value`) or `details.reason` (`required`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    submitAssignment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A client-chosen key (e.g. a UUID) unique to this submission, at most 200 characters.
                 * @example 6f1c2b9e-8a43-4d7e-9d55-0c1e7a2b3f10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Submission"];
            };
        };
        responses: {
            /**
             * @description Submitted (or, with `replayed`, submitted before with this key). On a form with
             *     passes, submitting a pass other than the last freezes that pass's answers and answers
             *     with the assignment still `active` and `submitted_at` null, and `next_pass` naming the
             *     pass that opened; the next `queue/next` returns the same assignment with that pass's
             *     view. The response holds nothing of the next pass's inputs.
             */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "assignment": {
                     *         "id": "0190a1b2c3d4e5f6a7b8c9d0e1f2a3b4",
                     *         "stage": "label",
                     *         "status": "submitted",
                     *         "submitted_at": "2025-06-01T10:15:02Z"
                     *       },
                     *       "item_stage": "adjudicate",
                     *       "replayed": false
                     *     }
                     */
                    "application/json": {
                        assignment: {
                            id: string;
                            stage: components["schemas"]["WorkStage"];
                            /**
                             * @description `active` after a pass that is not the last.
                             * @enum {string}
                             */
                            status: "submitted" | "active";
                            /** Format: date-time */
                            submitted_at: string | null;
                        };
                        item_stage: components["schemas"]["ItemStage"];
                        /** @description True when this answers a retry with the same Idempotency-Key. */
                        replayed: boolean;
                        next_pass?: components["schemas"]["PassStep"];
                    };
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            /**
             * @description `already_submitted`: submitted before (without this Idempotency-Key);
             *     `lease_lost`: the lease expired and the slot went to someone else (the answers stay
             *     as a draft); `conflict`: the assignment is no longer open, or the item is no longer
             *     waiting for this (e.g. adjudicated meanwhile); `no_schema`.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            /**
             * @description `validation_failed`: `details` is keyed by question key for invalid or missing
             *     answers, and by `verdict`, `rationale`, `confidence` or `Idempotency-Key` (longer
             *     than 200 characters).
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "validation_failed",
                     *         "message": "some answers are invalid",
                     *         "details": {
                     *           "physical_adherence": {
                     *             "code": "out_of_range",
                     *             "message": "value 7 is outside 1..5"
                     *           },
                     *           "count_correct": {
                     *             "code": "required",
                     *             "message": "Count correct: an answer is required"
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    saveDraftDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            /** @description As the project-scoped route. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    heartbeatDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            /** @description As the project-scoped route. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    skipAssignmentDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            /** @description As the project-scoped route. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    releaseAssignmentDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            /** @description As the project-scoped route. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    flagAssignmentDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            /** @description As the project-scoped route. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    submitAssignmentDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An assignment id of the caller; other people's assignments answer 404. */
                aid: components["parameters"]["assignmentID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AssignmentNotFound"];
            /** @description As the project-scoped route. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listFormats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The formats. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        formats: components["schemas"]["FormatInfo"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    listTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Summaries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example d3omni-t2i */
                        id: string;
                        name: string;
                        description: string;
                        question_count: number;
                    }[];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Template id, e.g. `d3omni-t2i`. */
                id: components["parameters"]["templateID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
        };
    };
    validateTemplateAnswers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Template id, e.g. `d3omni-t2i`. */
                id: components["parameters"]["templateID"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Answers keyed by question key; see docs/tasks.md for each kind's value. */
                    answers?: {
                        [key: string]: unknown;
                    };
                    /** @description Key of an extra form of the template; empty for the main schema. */
                    form?: string;
                };
            };
        };
        responses: {
            /** @description The answers are valid. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        valid: true;
                    };
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            /** @description `not_found`: no such template, or no such form in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    healthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status?: "ok";
                    };
                };
            };
        };
    };
    readyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Not ready; `checks` says `unreachable` of the failing dependency (the cause goes to the server's log). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description `ARBITER_METRICS_TOKEN` is set and the request does not carry it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Metrics are served on `--metrics-addr` instead. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBlob: {
        parameters: {
            query: {
                /** @description Expiry (Unix seconds). */
                exp: string;
                /** @description Content type to answer with. */
                ct?: string;
                /** @description HMAC-SHA256 signature. */
                sig: string;
            };
            header?: never;
            path: {
                /** @description The blob key (may contain slashes). */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The blob. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Part of the blob (range request). */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `forbidden`: bad or expired signature. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
        };
    };
    getTemplateMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Relative media path (may contain slashes). */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description No such file (plain text). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhooks, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Webhook"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://ci.example.org/arbiter",
                 *       "events": [
                 *         "release.completed",
                 *         "release.failed"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uri
                     * @description An absolute http:// or https:// URL without credentials.
                     */
                    url: string;
                    events: components["schemas"]["WebhookEvent"][];
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description The webhook with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`: `details.events` (`required`), `details.events[i]` (`unknown_event`, `duplicate`), `details.url` (`required`, `invalid_url`, `unresolvable`, `private_address`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Webhook id. */
                wid: components["parameters"]["webhookID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook is gone. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Webhook id. */
                wid: components["parameters"]["webhookID"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "enabled": false
                 *     }
                 */
                "application/json": {
                    /** Format: uri */
                    url?: string;
                    events?: components["schemas"]["WebhookEvent"][];
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description The webhook as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["InvalidJSON"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `validation_failed`, as when a webhook is made. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Webhook id. */
                wid: components["parameters"]["webhookID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook with its new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Project id. Non-members get 404 for every path under it. */
                pid: components["parameters"]["pid"];
                /** @description Webhook id. */
                wid: components["parameters"]["webhookID"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery log. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["WebhookDelivery"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
}
