import AddIcon from '@mui/icons-material/Add';
import {
  Box,
  Button as MuiButton,
  Card,
  styled,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { Fragment, Suspense, useMemo, useState, type ReactNode } from 'react';
import {
  BooleanField,
  DataTable,
  downloadCSV,
  ExportButton,
  ListBase,
  RecordContextProvider,
  Title,
  TopToolbar,
  useListContext,
  useRefresh,
  useTranslate,
  type Exporter,
  type RaRecord,
} from 'react-admin';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import {
  declarationOf,
  isOffered,
  listsReferencing,
  missingFor,
  offers,
  screenOfType,
  typeOfResource,
  type RecordActionDeclaration,
  type ResourceName,
} from '../dataProvider/resourceTypes';
import { labelsOf } from '../labels';
import { toCsv } from './csv';
import { dayText, momentText } from './dates';
import { liveQuery } from './live';
import { fieldsOf, type FieldDescription } from './description';
import { correctedSearch, DEFAULT_SORT, PAGE_SIZE, pageSizesOf } from './listAddress';
import { LastPageRedirect, NextPagePrefetch } from './ListPaging';
import { AfterFirstPaint, afterFirstPaintModule } from '../layout/firstPaint';
import { useFailureToast, useToast } from '../layout/useToast';
import type { FormCustomization } from './RecordDialog';
import { usePromptedAction } from './actionPrompts';
import { RowActions } from './RowActions';
import { SearchBox } from './SearchBox';
import { ScreenLangProvider } from './ScreenLanguage';
import { SpecPagination } from './SpecPagination';

export { PAGE_SIZE };

// The dialogs (add, edit, delete) and their forms are not on a list's first screen: their code comes after it.
const dialogs = afterFirstPaintModule(() => import('./RecordDialog'));
const CreateDialog = dialogs.component((module) => module.CreateDialog);
const EditDialog = dialogs.component((module) => module.EditDialog);
const ShowDialog = dialogs.component((module) => module.ShowDialog);
// What only some lists show (a state's filter, a link to a referenced record) comes after the first paint too.
const extras = afterFirstPaintModule(() => import('./ListExtras'));
const StateFilters = extras.component((module) => module.StateFilters);
const ReferenceLink = extras.component((module) => module.ReferenceLink);
const FilterChips = extras.component((module) => module.FilterChips);
const confirms = afterFirstPaintModule(() => import('./DeleteConfirm'));
const DeleteRecordConfirm = confirms.component((module) => module.DeleteRecordConfirm);
const SpecBulkDeleteButton = confirms.component((module) => module.SpecBulkDeleteButton);
const ActionConfirm = confirms.component((module) => module.ActionConfirm);
export const PLACEHOLDER_ROWS = 4;

type Translate = ReturnType<typeof useTranslate>;

/** A column a screen words itself: its text (shown and exported) and, if it differs, how it is drawn. */
export interface ColumnCustomization {
  source: string;
  text?: (record: RaRecord, translate: Translate) => string;
  render?: (record: RaRecord) => ReactNode;
  /** How a read-only record's dialog shows it, where it says more than the column (a run's every error). */
  dialog?: (record: RaRecord) => ReactNode;
}

const TruncatedText = styled('span')({
  display: 'block',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

/** A cell's text cut at 150px, with the full text on hover. */
export function Truncated({ text, width = 150 }: { text: string; width?: number }) {
  // Fixed styles and the width inline: a table draws many of these, and `sx` is worked out on every render.
  return (
    <TruncatedText title={text} style={{ maxWidth: width }}>
      {text}
    </TruncatedText>
  );
}

/** Moments as every screen writes them (dates.ts), whatever the browser's or the screen's language: 15/03/2026 14:30. */
export function dateFormatOf(_lang?: string) {
  return { format: momentText };
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount given as decimal text ('99.90') as the screen's language writes money in reais: R$ 99,90 on a Portuguese
 * screen, R$99.90 on an English one. Text that is not a number stays as it is.
 */
export function moneyText(value: unknown, lang = 'pt-BR'): string {
  const amount = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(amount) || String(value).trim() === '') return String(value);
  let format = moneyFormats.get(lang);
  if (!format) moneyFormats.set(lang, (format = new Intl.NumberFormat(lang, { style: 'currency', currency: 'BRL' })));
  return format.format(amount);
}

/**
 * How a field reads by default: a secret says whether it is set, a boolean yes or no, a moment in the viewer's locale,
 * money as money (`@display(as: "money")`: R$ 99,90), a state as its label says (`values.<field>.<value>`), a JSON
 * list as its length (a run's errors: how many), an empty optional value as the screen's language writes it ('—',
 * 'N/A' in English), anything else as it is.
 */
export function defaultText(
  resource: string,
  source: string,
  field: FieldDescription | undefined,
  value: unknown,
  translate: Translate,
  /** The screen's language where it is not the document's (pt-BR). */
  lang = 'pt-BR',
): string {
  if (field?.secret) return translate(value ? 'app.secret.set' : 'app.secret.unset');
  if (value == null || value === '') return field?.nullable ? translate('app.list.empty_value') : '';
  if (field?.type === 'Boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  if (field?.type === 'DateTime') return momentText(value);
  if (field?.type === 'Date') return dayText(value);
  if (field?.display === 'money') return moneyText(value, lang);
  if (field?.type === 'JSON') return Array.isArray(value) ? String(value.length) : JSON.stringify(value);
  // A state, or a text of a few values the labels name (a mail's kind: `Recuperação de senha`), in words.
  if (field?.values || (field?.type === 'String' && typeof value === 'string' && /^[\w-]{1,64}$/.test(value)))
    return translate(`resources.${resource}.values.${source}.${String(value)}`, { _: String(value) });
  return String(value);
}

/** A state's colour: what went wrong in red, what is done in green, what waits or runs in between. */
function stateColor(value: string): 'error' | 'success' | 'warning' | 'info' | 'default' {
  if (/fail|error|revoked|suspended|disconnected|^rejected$/.test(value)) return 'error';
  if (/complete|succeed|success|linked|idle|^(sent|processed|invoiced|shipped)$/.test(value)) return 'success';
  if (/retry|partial|unpublished|not_connected|^(held|uncertain)$/.test(value)) return 'warning';
  if (/active|running|^sending$/.test(value)) return 'info';
  return 'default';
}

/**
 * A state as a chip of its colour (outlined, as MUI's small Chip), named as its label says, in a readable shade; with
 * `hint`, that text in a tooltip (and as the chip's description), the chip then reachable by keyboard.
 */
export function StateChip({ value, text, hint }: { value: unknown; text: string; hint?: string }) {
  const color = stateColor(String(value));
  const tone = color === 'default' ? 'text.secondary' : `textShade.${color}`;
  const chip = (
    <Box
      component="span"
      tabIndex={hint ? 0 : undefined}
      sx={{
        display: 'inline-block',
        px: 1,
        border: 1,
        borderColor: tone,
        color: tone,
        borderRadius: 4,
        fontSize: 13,
        whiteSpace: 'nowrap',
      }}
    >
      {text}
    </Box>
  );
  return hint ? (
    <Tooltip title={hint} describeChild>
      {chip}
    </Tooltip>
  ) : (
    chip
  );
}

/**
 * Why a record's state keeps an action from it, where it lacks what the action needs: 'Falta o ID da loja Nuvemshop'
 * (`actions.<name>.missing` in the screen's labels).
 */
export function missingText(resource: string, record: RaRecord, source: string, translate: Translate) {
  for (const action of declarationOf(resource).actions ?? []) {
    if (action.unavailable?.field !== source || !action.unavailable.values.includes(String(record[source]))) continue;
    const missing = missingFor(action, record);
    if (!missing.length) continue;
    const key = `resources.${resource}.actions.${action.name}.missing`;
    const names = missing.map((field) =>
      translate(`${key}.fields.${field}`, { _: translate(`resources.${resource}.fields.${field}`) }),
    );
    const fields =
      names.length > 1 ? `${names.slice(0, -1).join(', ')}${translate(`${key}.and`)}${names.at(-1)}` : names[0];
    return translate(`${key}.${names.length > 1 ? 'many' : 'one'}`, { fields });
  }
  return undefined;
}

/**
 * What a state means for the person reading it, where its label alone does not say what to do (`hints.<field>.<value>`
 * in the screen's labels: a client's "Com falhas"), or nothing.
 */
function stateHint(resource: string, source: string, value: unknown, translate: Translate) {
  return translate(`resources.${resource}.hints.${source}.${String(value)}`, { _: '' }) || undefined;
}

/**
 * What a record's other fields say beside its state, when they are set (`notes.<state field>.<field>` in the screen's
 * labels, `%{value}` the field's value, a list's bare commas spaced): a client's missing Nuvemshop permissions.
 */
export function stateNotes(resource: string, record: RaRecord, source: string, translate: Translate): string[] {
  const notes = (labelsOf(resource)?.notes as Record<string, Record<string, string>> | undefined)?.[source];
  return Object.keys(notes ?? {})
    .filter((field) => record[field] != null && record[field] !== '')
    .map((field) =>
      translate(`resources.${resource}.notes.${source}.${field}`, {
        value: String(record[field]).replace(/,(?=\S)/g, ', '),
      }),
    );
}

/** A chip's tooltip: its state's hint, then what the record's notes add; nothing when neither says anything. */
const chipHint = (hint: string | undefined, notes: string[]) => [hint, ...notes].filter(Boolean).join(' ') || undefined;

interface Column {
  source: string;
  field: FieldDescription | undefined;
  text: (record: RaRecord) => string;
  render: (record: RaRecord) => ReactNode;
  /** How a phone's list shows it, under its label: as the screen draws it, else as text (a yes or no in words). */
  detail: (record: RaRecord) => ReactNode;
}

function useColumns(
  resource: ResourceName,
  customized: (string | ColumnCustomization)[] | undefined,
  lang: string | undefined,
): Column[] {
  const translate = useTranslate();
  return useMemo(() => {
    const fields = fieldsOf(typeOfResource(resource));
    // The columns are the fields the schema marks @listed: first those the screen names, in its order, then the rest.
    const named = (customized ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.source));
    const rest = Object.keys(fields).filter((name) => fields[name].listed && !named.includes(name));
    return [...(customized ?? []), ...rest].map((entry) => {
      const custom: ColumnCustomization = typeof entry === 'string' ? { source: entry } : entry;
      const field = fields[custom.source];
      const text = (record: RaRecord) =>
        custom.text
          ? custom.text(record, translate)
          : defaultText(resource, custom.source, field, record[custom.source], translate, lang);
      const target = field?.references ? screenOfType(field.references) : undefined;
      const render =
        custom.render ??
        (custom.text
          ? (record: RaRecord) => <Truncated text={text(record)} />
          : field?.type === 'Boolean' && !field.nullable
            ? () => <BooleanField source={custom.source} />
            : field?.values
              ? (record: RaRecord) => (
                  <StateChip
                    value={record[custom.source]}
                    text={text(record)}
                    hint={chipHint(
                      missingText(resource, record, custom.source, translate) ??
                        stateHint(resource, custom.source, record[custom.source], translate),
                      stateNotes(resource, record, custom.source, translate),
                    )}
                  />
                )
              : target
                ? (record: RaRecord) =>
                    record[custom.source] == null ? (
                      <Truncated text={text(record)} />
                    ) : (
                      <Suspense fallback={null}>
                        <ReferenceLink source={custom.source} screen={target} />
                      </Suspense>
                    )
                : field?.type === 'DateTime'
                  ? // A moment is short and whole: it may break between its date and its time where room is short.
                    text
                  : (record: RaRecord) => <Truncated text={text(record)} />);
      // A reference is a link on a phone too, not the id it holds, and a state its coloured chip.
      const detail = custom.render ?? (target || field?.values ? render : text);
      return { source: custom.source, field, text, render, detail };
    });
  }, [resource, customized, translate, lang]);
}

/** The fields a read-only dialog draws as the screen says. */
function dialogDetails(customized: (string | ColumnCustomization)[] | undefined) {
  return Object.fromEntries(
    (customized ?? []).flatMap((entry) =>
      typeof entry !== 'string' && entry.dialog ? [[entry.source, entry.dialog] as const] : [],
    ),
  );
}

/** The exporter: what the columns show, every filtered row (not just the page), as CSV. */
function useCsvExporter(resource: string, columns: Column[]): Exporter {
  const translate = useTranslate();
  return (records: RaRecord[]) => {
    const header = columns.map((column) => translate(`resources.${resource}.fields.${column.source}`));
    downloadCSV(toCsv([header, ...records.map((record) => columns.map((column) => column.text(record)))]), resource);
  };
}

/** A table's headings over a body of the screen's own: placeholder rows, or what an empty list says. */
function HeadedTable({
  label,
  headings,
  busy,
  children,
}: {
  label: string;
  headings: string[];
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <TableContainer>
      <Table size="small" aria-label={label} aria-busy={busy}>
        <TableHead>
          <TableRow>
            {headings.map((heading, index) => (
              <TableCell key={index}>{heading}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}

/** 4 placeholder rows under the headings while the first page loads. */
function PlaceholderRows({ columns }: { columns: number }) {
  return Array.from({ length: PLACEHOLDER_ROWS }, (_, row) => (
    <TableRow key={row} data-testid="placeholder-row">
      {Array.from({ length: columns }, (_, index) => (
        <TableCell key={index}>
          <Skeleton variant="text" width="80%" />
        </TableCell>
      ))}
    </TableRow>
  ));
}

/**
 * What an empty list says: that nothing matches the search, with a button back to every row; or, with no search,
 * that there is nothing yet.
 */
function EmptyMessage({ resource }: { resource: string }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const { q, ...others } = filterValues as Record<string, unknown>;
  if (typeof q !== 'string' || !q) return <Typography>{translate(`resources.${resource}.empty`)}</Typography>;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 2, rowGap: 1 }}>
      <Typography sx={{ overflowWrap: 'anywhere' }}>{translate('app.list.no_results', { q })}</Typography>
      <MuiButton variant="outlined" size="small" onClick={() => setFilters(others)}>
        {translate('app.list.clear_search')}
      </MuiButton>
    </Box>
  );
}

interface TableProps {
  resource: ResourceName;
  columns: Column[];
  representation: (record: RaRecord) => string;
  isLocked: (record: RaRecord) => boolean;
  onEdit: (record: RaRecord) => void;
  onDelete: (record: RaRecord) => void;
}

/** A row's menu, named after the record: edit and delete where the resource offers them, else a look at it. */
function RecordActions({
  resource,
  record,
  representation,
  isLocked,
  onEdit,
  onDelete,
}: Omit<TableProps, 'columns'> & { record: RaRecord }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const toast = useToast();
  const failed = useFailureToast();
  const refresh = useRefresh();
  const { start, dialog } = usePromptedAction();
  const [confirming, setConfirming] = useState<RecordActionDeclaration | null>(null);
  const actions = [
    ...(offers(resource, 'update')
      ? [{ label: translate(`resources.${resource}.action.edit`), onClick: () => onEdit(record) }]
      : [{ label: translate(`resources.${resource}.action.show`), onClick: () => onEdit(record) }]),
    // What the declaration adds (a client's sync now): its code comes when one is chosen; the row then reads again.
    ...(declarationOf(resource).actions ?? [])
      .filter((action) => isOffered(action, record))
      .map((action) => ({
        label: translate(`resources.${resource}.actions.${action.name}.label`),
        danger: action.confirm,
        onClick: () =>
          action.confirm
            ? setConfirming(action)
            : start(action.name, record, (variables) =>
                import('./recordAction')
                  .then(({ runRecordAction }) =>
                    runRecordAction({
                      resource,
                      action,
                      record,
                      name: representation(record),
                      translate,
                      toast,
                      variables,
                    }),
                  )
                  .then(
                    (outcome) => {
                      refresh();
                      return outcome;
                    },
                    (error: unknown) => {
                      failed(error);
                      return { done: false };
                    },
                  ),
              ),
      })),
    ...(offers(resource, 'delete')
      ? [{ label: translate(`resources.${resource}.action.delete`), onClick: () => onDelete(record), danger: true }]
      : []),
    // The record's rows in another list (a client's webhooks), filtered to it.
    ...listsReferencing(resource).map(({ screen, source }) => ({
      label: translate(`resources.${screen}.menu`),
      onClick: () => navigate(`/${screen}?filter=${encodeURIComponent(JSON.stringify({ [source]: record.id }))}`),
    })),
  ];
  return (
    <>
      <RowActions
        label={translate('app.list.actions_for', { name: representation(record) })}
        disabled={isLocked(record)}
        actions={actions}
      />
      {dialog}
      {confirming && (
        <Suspense fallback={null}>
          <ActionConfirm
            resource={resource}
            action={confirming}
            record={record}
            name={representation(record)}
            onClose={() => setConfirming(null)}
          />
        </Suspense>
      )}
    </>
  );
}

/** The rows as a table: react-admin's DataTable, with the specification's loading rows and its stale page dimmed. */
function ResourceTable(props: TableProps) {
  const { resource, columns, representation, isLocked, onEdit } = props;
  const translate = useTranslate();
  const { isPending, isPlaceholderData } = useListContext();
  const label = translate(`resources.${resource}.table`);
  const headings = [
    ...columns.map((c) => translate(`resources.${resource}.fields.${c.source}`)),
    translate('app.list.actions'),
  ];
  if (isPending) {
    return (
      <HeadedTable label={label} headings={headings} busy>
        <PlaceholderRows columns={headings.length} />
      </HeadedTable>
    );
  }
  return (
    <DataTable
      aria-label={label}
      aria-busy={isPlaceholderData}
      rowClick={(_id, _resource, record) => {
        if (!isLocked(record)) onEdit(record);
        return false;
      }}
      isRowSelectable={(record) => !isLocked(record)}
      rowSx={() => ({ opacity: isPlaceholderData ? 0.5 : 1, transition: 'opacity 0.2s' })}
      bulkActionButtons={
        // Drawn hidden until a row is selected; no selection where nothing can be deleted.
        offers(resource, 'delete') ? (
          <AfterFirstPaint>
            <Suspense fallback={null}>
              <SpecBulkDeleteButton
                resource={resource}
                title={translate(`resources.${resource}.action.delete`)}
                representation={representation}
              />
            </Suspense>
          </AfterFirstPaint>
        ) : (
          false
        )
      }
      // An empty page keeps the table's headings, with what it has to say in its body.
      empty={
        <HeadedTable label={label} headings={headings}>
          <TableRow>
            <TableCell colSpan={headings.length}>
              <EmptyMessage resource={resource} />
            </TableCell>
          </TableRow>
        </HeadedTable>
      }
      sx={{
        '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
        // Half MUI's side padding between columns: a resource of many columns (clients) fits a desktop's width whole,
        // none of its headings under the sticky actions column.
        '& .MuiTableCell-root:not(.MuiTableCell-paddingCheckbox)': { px: 1 },
        // Where the columns are wider than the screen, the row menu stays in sight at the right edge while the rest
        // scrolls under it.
        '& .actions-column': {
          position: 'sticky',
          right: 0,
          zIndex: 1,
          bgcolor: 'background.paper',
          boxShadow: (theme: Theme) => `inset 1px 0 0 ${(theme.vars || theme).palette.divider}`,
        },
        // Above the other headings, which stay at the top as the rows scroll.
        '& .RaDataTable-headerCell.actions-column': { zIndex: 3 },
      }}
    >
      {columns.map((column) => (
        <DataTable.Col
          key={column.source}
          source={column.source}
          label={`resources.${resource}.fields.${column.source}`}
          disableSort={!column.field?.sortable}
          render={column.render}
        />
      ))}
      <DataTable.Col
        label={headings[headings.length - 1]}
        headerClassName="actions-column"
        cellClassName="actions-column"
        render={(record: RaRecord) => <RecordActions {...props} record={record} />}
      />
    </DataTable>
  );
}

const PhoneRow = styled('li')(({ theme }) => ({
  display: 'flex',
  alignItems: 'flex-start',
  gap: theme.spacing(1),
  padding: theme.spacing(1.5, 1, 1.5, 2),
  '& + &': { borderTop: `1px solid ${(theme.vars || theme).palette.divider}` },
}));

const Details = styled('dl')(({ theme }) => ({
  ...theme.typography.body2,
  display: 'grid',
  gridTemplateColumns: 'auto minmax(0, 1fr)',
  gap: theme.spacing(0.25, 1.5),
  margin: theme.spacing(0.5, 0, 0),
  '& dt': { color: (theme.vars || theme).palette.text.secondary },
  '& dd': { margin: 0, overflowWrap: 'anywhere' },
}));

/**
 * The rows on a phone, as react-admin's SimpleList shows them: each record named in full, its other fields under it
 * with their labels, and its menu beside it. Nothing is wider than the screen: a table there scrolls sideways, with
 * its row menus at the far end.
 */
function PhoneList(props: TableProps) {
  const { resource, columns, representation, isLocked, onEdit } = props;
  const translate = useTranslate();
  const { data, isPending, isPlaceholderData } = useListContext();
  // The fields that name a record (its declaration's title and subtitle) are each item's title, not its details.
  const { title: titleField, subtitle } = declarationOf(resource);
  const label = translate(`resources.${resource}.table`);
  if (isPending) {
    return (
      <Box aria-label={label} aria-busy sx={{ px: 2, py: 1 }}>
        {Array.from({ length: PLACEHOLDER_ROWS }, (_, row) => (
          <Skeleton key={row} data-testid="placeholder-row" height={64} />
        ))}
      </Box>
    );
  }
  if (!data?.length) {
    return (
      <Box sx={{ p: 2 }}>
        <EmptyMessage resource={resource} />
      </Box>
    );
  }
  const details = columns.filter((column) => column.source !== (titleField ?? 'id') && column.source !== subtitle);
  return (
    <Box
      component="ul"
      aria-label={label}
      aria-busy={isPlaceholderData}
      sx={{ listStyle: 'none', m: 0, p: 0, opacity: isPlaceholderData ? 0.5 : 1, transition: 'opacity 0.2s' }}
    >
      {data.map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <PhoneRow
            onClick={isLocked(record) ? undefined : () => onEdit(record)}
            style={{ cursor: isLocked(record) ? undefined : 'pointer' }}
          >
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{representation(record)}</Typography>
              <Details>
                {details.map((column) => (
                  <Fragment key={column.source}>
                    <dt>{translate(`resources.${resource}.fields.${column.source}`)}</dt>
                    <dd>{column.detail(record)}</dd>
                  </Fragment>
                ))}
              </Details>
            </Box>
            <RecordActions {...props} record={record} />
          </PhoneRow>
        </RecordContextProvider>
      ))}
    </Box>
  );
}

function ListActions({ resource, label, onAdd }: { resource: ResourceName; label: string; onAdd?: () => void }) {
  const translate = useTranslate();
  // The add button keeps its words on a phone too (react-admin's own buttons shrink to an icon there); the filters
  // give up their width first, so that the export stays on the row beside them.
  return (
    <TopToolbar
      sx={{
        // On a phone the filters shrink and share one row with the buttons; on a narrow window beside the sidebar the
        // tools join the search box's row and wrap with it (filters, then the buttons together at the right), rather
        // than push the page sideways or leave a button alone on a row; on a desktop they keep one row.
        display: { xs: 'flex', sm: 'contents', lg: 'flex' },
        flexWrap: { xs: 'nowrap', lg: 'nowrap' },
        // A phone's whole width, which its filters share.
        width: { xs: '100%', sm: 'auto' },
        boxSizing: 'border-box',
        alignItems: 'center',
        gap: 1,
        minHeight: 0,
        py: { xs: 1 },
        // Each control keeps its words whole: the toolbar wraps rather than squeezing one over another.
        '& > :not(.list-filters)': { flexShrink: 0, whiteSpace: 'nowrap' },
      }}
    >
      {hasStateFilters(resource) && (
        // As tall from the first paint as once the filters are drawn, so that the rows below never move.
        <Box
          className="list-filters"
          sx={{
            // Two filters too wide for a narrow window's row go one under the other.
            height: { xs: 48, sm: 'auto', lg: 48 },
            minHeight: 48,
            display: 'flex',
            flexWrap: { xs: 'nowrap', sm: 'wrap', lg: 'nowrap' },
            alignItems: 'center',
            gap: 1,
            flex: { xs: '1 1 auto', sm: '0 1 auto' },
            minWidth: 0,
          }}
        >
          <AfterFirstPaint>
            <Suspense fallback={null}>
              <StateFilters resource={resource} />
            </Suspense>
          </AfterFirstPaint>
        </Box>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, ml: 'auto', minHeight: 48 }}>
        {onAdd && (
          <MuiButton variant="contained" size="small" startIcon={<AddIcon />} onClick={onAdd}>
            {label}
          </MuiButton>
        )}
        {/* Named on a phone, where it is an icon, even while there is nothing to export and it is disabled. */}
        <ExportButton maxResults={1000} aria-label={translate('ra.action.export')} />
      </Box>
    </TopToolbar>
  );
}

/** Whether the resource's lists have a state or a reference to filter by (drawn after the first paint, ListExtras.tsx). */
const hasStateFilters = (resource: ResourceName) =>
  Object.values(fieldsOf(typeOfResource(resource))).some(
    (field) => field.filterable && (field.values || (field.references && screenOfType(field.references))),
  );

/** The page around a list, as react-admin's List lays it out (its ListView and ListToolbar). */
const Frame = styled('div')(({ theme }) => ({
  display: 'flex',
  '& .RaList-main': { flex: '1 1 auto', display: 'flex', flexDirection: 'column', minWidth: 0 },
  '& .RaList-content': {
    position: 'relative',
    overflow: 'inherit',
    [theme.breakpoints.down('sm')]: { boxShadow: 'none' },
  },
}));

const Toolbar = styled('div')(({ theme }) => ({
  display: 'flex',
  position: 'relative',
  justifyContent: 'space-between',
  alignItems: 'flex-end',
  width: '100%',
  // Beside the sidebar on a narrow window, the search box and the tools (ListActions) share rows, wrapping.
  [theme.breakpoints.between('sm', 'lg')]: {
    flexWrap: 'wrap',
    justifyContent: 'flex-start',
    columnGap: theme.spacing(1),
    '& > .list-spacer': { display: 'none' },
  },
  [theme.breakpoints.down('sm')]: {
    backgroundColor: (theme.vars || theme).palette.background.paper,
    flexWrap: 'inherit',
    flexDirection: 'column-reverse',
  },
}));

/**
 * react-admin's List page drawn on its ListBase: the search box and the actions above the table's card, the pagination
 * below. react-admin's List would also bring into the first screen's code what this app does not show (its filter
 * form, its pagination with a rows-per-page select, its empty page): about a tenth of that code.
 */
function ListPage({
  search,
  actions,
  filters,
  pagination,
  children,
}: Record<'search' | 'actions' | 'filters' | 'pagination' | 'children', ReactNode>) {
  return (
    <Frame className="list-page">
      <div className="RaList-main">
        <Toolbar className="RaList-actions">
          {search}
          <span className="list-spacer" />
          {actions}
        </Toolbar>
        {filters}
        <Card className="RaList-content">{children}</Card>
        {pagination}
      </div>
    </Frame>
  );
}

export interface ResourceListProps {
  resource: ResourceName;
  /** The columns the screen orders first or words itself; the other @listed fields follow. */
  columns?: (string | ColumnCustomization)[];
  /** How a record is named (its row menu, a phone's list, the delete confirmation) where no column shows its title. */
  representation: (record: RaRecord) => string;
  /** A record the user may not edit or delete (their own). */
  isLocked?: (record: RaRecord) => boolean;
  form?: FormCustomization;
  /** The screen's language where it is not the document's (pt-BR): 'en' for a screen in English. */
  lang?: string;
}

const unlocked = () => false;

/**
 * A list screen derived from the schema: react-admin's List and DataTable with a search box (when a field is
 * @searchable), sortable headings (@sortable), the total, CSV export, bulk delete, a row click to edit, the row
 * menus, and the add / edit / delete dialogs. Texts come from `resources.<name>` in the i18n messages.
 */
export function ResourceList({
  resource,
  columns: customized,
  representation,
  isLocked = unlocked,
  form,
  lang,
}: ResourceListProps) {
  const translate = useTranslate();
  const location = useLocation();
  const failed = useFailureToast();
  // A phone gets a list rather than a table; known on the first render, so it never draws the other first.
  const Rows = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true })
    ? PhoneList
    : ResourceTable;
  const columns = useColumns(resource, customized, lang);
  // A record is named as its title column reads (a state in words, not its code), in its row menu's name, a phone's
  // list and the delete confirmation alike: what people see is what they hear and say.
  // A title with a subtitle beside it is named as both read (recordTitle).
  const titleColumn = !declarationOf(resource).subtitle
    ? columns.find((column) => column.source === declarationOf(resource).title)
    : undefined;
  const name = titleColumn ? titleColumn.text : representation;
  const exporter = useCsvExporter(resource, columns);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<RaRecord | null>(null);
  const [deleting, setDeleting] = useState<RaRecord | null>(null);
  dialogs.usePreload();
  const searchable = Object.values(fieldsOf(typeOfResource(resource))).some((field) => field.searchable);
  const title = translate(`resources.${resource}.title`);

  const sizes = pageSizesOf(resource);
  const corrected = correctedSearch(location.search, sizes);
  if (corrected !== null) return <Navigate replace to={{ pathname: location.pathname, search: corrected }} />;

  return (
    <ScreenLangProvider value={lang}>
      {/* The layout grows with its content: this box takes the width it is given instead (inline-size containment),
          so a wide table scrolls inside its own box rather than pushing the page sideways on a phone. */}
      <Box lang={lang} sx={{ p: { xs: 1, sm: 3 }, width: '100%', boxSizing: 'border-box', contain: 'inline-size' }}>
        <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
          {title}
        </Typography>
        <ListBase
          resource={resource}
          perPage={sizes[0]}
          sort={DEFAULT_SORT}
          storeKey={false}
          // Who may see the list is settled before it mounts (RequireAccess around every resource screen, the Layout
          // for the session), so the list asks for its rows at once instead of checking both again first.
          disableAuthentication
          exporter={exporter}
          // A failed load (the server unreachable, say) is told in the screen's language and the app's toasts; the
          // page shown is read again while the screen is open.
          queryOptions={{ onError: failed, ...liveQuery }}
        >
          <Title title={title} preferenceKey={false} />
          <ListPage
            search={searchable ? <SearchBox /> : null}
            actions={
              <ListActions
                resource={resource}
                label={translate(`resources.${resource}.action.create`)}
                onAdd={offers(resource, 'create') ? () => setAdding(true) : undefined}
              />
            }
            filters={
              <AfterFirstPaint>
                <Suspense fallback={null}>
                  <FilterChips resource={resource} />
                </Suspense>
              </AfterFirstPaint>
            }
            pagination={
              <AfterFirstPaint>
                <SpecPagination resource={resource} sizes={sizes} />
              </AfterFirstPaint>
            }
          >
            <Rows
              resource={resource}
              columns={columns}
              representation={name}
              isLocked={isLocked}
              onEdit={setEditing}
              onDelete={setDeleting}
            />
            <NextPagePrefetch />
            <LastPageRedirect />
          </ListPage>
        </ListBase>
        <Suspense fallback={null}>
          {adding && (
            <CreateDialog
              resource={resource}
              title={translate(`resources.${resource}.action.create`)}
              onClose={() => setAdding(false)}
              form={form}
            />
          )}
          {editing && !offers(resource, 'update') && (
            <ShowDialog
              resource={resource}
              title={translate(`resources.${resource}.action.show`)}
              record={editing}
              details={dialogDetails(customized)}
              onClose={() => setEditing(null)}
            />
          )}
          {editing && offers(resource, 'update') && (
            <EditDialog
              resource={resource}
              title={translate(`resources.${resource}.action.edit`)}
              record={editing}
              onClose={() => setEditing(null)}
              form={form}
              representation={name}
            />
          )}
          {/* Always there once the page has been painted (its module loads then): it closes with a transition. */}
          <AfterFirstPaint>
            <DeleteRecordConfirm
              resource={resource}
              record={deleting}
              title={translate(`resources.${resource}.action.delete`)}
              representation={name}
              onClose={() => setDeleting(null)}
            />
          </AfterFirstPaint>
        </Suspense>
      </Box>
    </ScreenLangProvider>
  );
}
