// Package tasks is Arbiter's annotation schema language.
//
// A Schema says what an item holds (its inputs, and who may see each one) and
// which questions are asked about it. The package validates schemas and
// submitted answers, produces the blinded view a role may see (hidden inputs
// removed, candidates shuffled per assignment), maps answers between shown and
// canonical candidate order, hashes schemas for versioning, and ships the
// built-in benchmark templates with their sample items and media.
//
// Question kinds are one table (kinds.go): every kind has one kind_*.go
// file whose type owns all its behaviour, from the fields that apply and how
// answers validate, through how answers decode, normalise and compare for
// consensus and agreement, to what exports make of them. The rest of the
// product asks KindOf(q) instead of switching on Kind, and Schema.InputsOf
// for the inputs a question may see.
//
// The package is pure: it has no database, no HTTP and no I/O of its own
// beyond io.Reader, io.Writer and its embedded template files.
package tasks
