import { ComingSoon } from '../components/ui/ComingSoon';

/** /feedback: the feedback form arrives with its own issue. */
export default function FeedbackPage() {
  return <ComingSoon>The feedback form arrives in an upcoming release. Until then, please tell your portal administrator.</ComingSoon>;
}
