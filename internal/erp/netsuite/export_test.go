package netsuite

// SetRowCap lowers the client's idea of SuiteQL's row cap, so tests see
// keyset windows turn over without 100,000 records.
func SetRowCap(c *Client, n int) { c.rowCap = n }
