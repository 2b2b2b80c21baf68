package netsuitetest

import "errors"

// RunQuery runs one SuiteQL page without HTTP and credentials, so the
// fuzz test and the benchmark reach the query engine directly.
func (s *Server) RunQuery(q string, limit, offset int) ([]byte, error) {
	out, aerr := s.runQuery(q, limit, offset, "http://fake"+SuiteQLPath)
	if aerr != nil {
		return nil, errors.New(aerr.Code + ": " + aerr.Detail)
	}
	return out, nil
}
