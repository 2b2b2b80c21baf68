import { ComingSoon } from '../components/ui/ComingSoon';

/** /reports/list, /reports/create and /reports/{id}: reports arrive with their own issue. */
export default function ReportsPage() {
  return <ComingSoon>Reports are on their way: defining, running and sharing them arrives in an upcoming release.</ComingSoon>;
}
