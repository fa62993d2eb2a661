-- The languages a project member reads (canonical BCP 47 tags); a member without rows reads
-- every language. Rows go with the membership. The queue gives a member only items in a language they read.
-- +goose Up
CREATE TABLE member_languages (
    project_id TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    language   TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id, language),
    FOREIGN KEY (project_id, user_id) REFERENCES project_members (project_id, user_id) ON DELETE CASCADE
);

-- +goose Down
DROP TABLE member_languages;
