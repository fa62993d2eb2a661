// Package tasks is Arbiter's annotation schema language.
//
// A Schema says what an item holds (its inputs, and who may see each one) and
// which questions are asked about it. The package validates schemas and
// submitted answers, produces the blinded view a role may see (hidden inputs
// removed, candidates shuffled per assignment), maps answers between shown and
// canonical candidate order, hashes schemas for versioning, and ships the
// built-in benchmark templates with their sample items and media.
//
// The package is pure: it has no database, no HTTP and no I/O of its own
// beyond io.Reader, io.Writer and its embedded template files.
package tasks
