// Package upgrade holds the rolling-upgrade test: the previous release's
// binary and this tree's, built from git, serving one PostgreSQL database
// side by side under load while the new one migrates it and the old ones
// are stopped one by one, as an operator upgrades a deployment. It lives
// beside the benchmarks for their harness (databases, processes, signed-in
// demo users); it runs with the other tests when PORTICO_TEST_DATABASE_URL
// names a PostgreSQL server.
package upgrade
