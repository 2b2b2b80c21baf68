/**
 * The report routes (SPEC §2): /reports/list (the user's reports), /reports/create (the
 * builder) and /reports/{id} (the report; with ?edit=1 the builder for it). For roles
 * with the reports.view permission; kinds are those the role may see.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useRouteMeta } from '../../lib/meta';
import { paths, reportPath } from '../../lib/paths';
import { kindsQuery, ErrorBlock, LoadingBlock, RecordErrorBoundary, useSharedElsewhere, type Kind } from '../records';
import { formOfReport, newReportForm } from './builder';
import { reportsQuery } from './queries';
import { ReportBuilder } from './ReportBuilder';
import { EDIT_PARAM, ReportList } from './ReportList';
import { ReportView } from './ReportView';
import type { Report } from './types';
import { useSessionStore } from '../../lib/session/store';
import { canView, RequirePermission } from '../../components/RequirePermission';

export const ErrorBoundary = RecordErrorBoundary;

export default function ReportsPage() {
  const { isList, isCreate } = useRouteMeta();
  const { reportId = '' } = useParams();
  const [search] = useSearchParams();
  let page;
  if (isList) page = <ReportList />;
  else if (isCreate) page = <WithKinds>{(kinds) => <CreateReport kinds={kinds} />}</WithKinds>;
  else if (search.get(EDIT_PARAM)) page = <WithKinds>{(kinds) => <EditReport key={reportId} id={reportId} kinds={kinds} />}</WithKinds>;
  else page = <ReportView key={reportId} id={reportId} />;
  return (
    <RequirePermission permission="reports.view" title="Reports" what="reports">
      {page}
    </RequirePermission>
  );
}

/** Renders `children` with the kinds the role may report on, once known. */
function WithKinds({ children }: { children: (kinds: Kind[]) => ReactNode }) {
  const kinds = useQuery(kindsQuery());
  const role = useSessionStore((s) => s.currentRole);
  if (kinds.error) return <ErrorBlock error={kinds.error} what="the record kinds" onRetry={() => void kinds.refetch()} />;
  if (kinds.isPending) return <LoadingBlock label="Loading…" rows={4} />;
  const visible = kinds.data.filter((k) => canView(role, k));
  if (visible.length === 0) return <ErrorBlock error={new Error('Your role may see no kind of records to report on.')} what="the record kinds" />;
  return <>{children(visible)}</>;
}

/** Opens a saved report, or the reports list when it went to a role other than the one worked in. */
function useOpenSaved() {
  const navigate = useNavigate();
  const sharedElsewhere = useSharedElsewhere();
  return (saved: Report) => void navigate(sharedElsewhere(saved, 'report') ? paths.reportList : reportPath(saved.id));
}

function CreateReport({ kinds }: { kinds: Kind[] }) {
  const [type, setType] = useState(() => (kinds.some((k) => k.name === 'project') ? 'project' : kinds[0]!.name));
  const onSaved = useOpenSaved();
  const kind = kinds.find((k) => k.name === type)!;
  return <ReportBuilder key={type} kinds={kinds} initial={newReportForm(kind)} onKindChange={setType} onSaved={onSaved} />;
}

function EditReport({ id, kinds }: { id: string; kinds: Kind[] }) {
  const reports = useQuery(reportsQuery());
  const onSaved = useOpenSaved();
  if (reports.error) return <ErrorBlock error={reports.error} what="the report" onRetry={() => void reports.refetch()} />;
  if (reports.isPending) return <LoadingBlock label="Loading the report…" rows={6} />;
  const report = reports.data.find((r) => r.id === id);
  const kind = kinds.find((k) => k.name === report?.type);
  if (!report || !kind || !report.editable) {
    return <ErrorBlock error={new Error(report ? 'Only its owner, or someone allowed to edit lists in its role, can change this report.' : 'There is no such report that you may see.')} what="the report" />;
  }
  return <ReportBuilder kinds={kinds} initial={formOfReport(kind, report)} report={report} onSaved={onSaved} />;
}
