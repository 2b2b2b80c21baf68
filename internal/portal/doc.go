// Package portal holds the vocabulary every other package shares: typed
// errors and their codes, tenant ids and paging. It has no dependencies on
// the rest of Portico, so any package may import it.
package portal
