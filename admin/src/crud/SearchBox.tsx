import ClearIcon from '@mui/icons-material/Clear';
import SearchIcon from '@mui/icons-material/Search';
import { Box, IconButton, InputAdornment, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useListContext, useTranslate } from 'react-admin';

/** How long the box waits after the last keystroke before the list searches, as react-admin's filter form does. */
export const SEARCH_DELAY_MS = 500;

/**
 * A list's search box: its text is the list's `q` filter, applied once typing pauses (at once on Enter) and back on
 * page 1; a search set elsewhere (the address, the browser's Back) shows in it.
 *
 * It is a field on react-admin's list context rather than react-admin's filter form: that form (react-hook-form)
 * updates its state while it mounts, in a layout effect, and React answers such an update by rendering the whole
 * screen a second time before it can be painted.
 */
export function SearchBox() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const applied = typeof filterValues.q === 'string' ? filterValues.q : '';
  const [text, setText] = useState(applied);
  // What has been typed and not yet applied: while there is some, a search arriving from elsewhere does not replace it.
  const typed = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const list = useRef({ filterValues, setFilters });
  useEffect(() => {
    list.current = { filterValues, setFilters };
  });
  useEffect(() => {
    if (typed.current === null) setText(applied);
  }, [applied]);
  useEffect(() => () => clearTimeout(timer.current), []);

  /** Applies `value` as the list's search now. */
  const apply = (value: string) => {
    clearTimeout(timer.current);
    typed.current = null;
    setText(value);
    const { q: _previous, ...others } = list.current.filterValues as Record<string, unknown>;
    list.current.setFilters(value === '' ? others : { ...others, q: value });
  };
  /** Shows `value` and applies it once typing pauses. */
  const type = (value: string) => {
    setText(value);
    typed.current = value;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => apply(value), SEARCH_DELAY_MS);
  };

  const placeholder = translate('ra.action.search');
  return (
    <Box
      component="form"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        apply(text);
      }}
      // As react-admin's filter form sits in the list's toolbar.
      sx={{
        display: 'flex',
        // Beside the sidebar on a narrow window it takes what its row leaves (ResourceList's Toolbar wraps there).
        flex: { xs: '1 1 auto', sm: '1 1 200px', lg: '0 1 100%' },
        width: { xs: '100%', sm: 'auto' },
        // theme.spacing(8)
        minHeight: { sm: 64 },
        alignItems: 'flex-end',
        pb: 0.5,
      }}
    >
      <TextField
        hiddenLabel
        size="small"
        margin="dense"
        value={text}
        onChange={(event) => type(event.target.value)}
        placeholder={placeholder}
        sx={{ mt: 1, width: { xs: '100%', lg: 'auto' } }}
        slotProps={{
          htmlInput: { 'aria-label': placeholder, enterKeyHint: 'search' },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                {text ? (
                  <IconButton
                    size="small"
                    aria-label={translate('ra.action.clear_input_value')}
                    onClick={() => apply('')}
                  >
                    <ClearIcon fontSize="small" />
                  </IconButton>
                ) : (
                  <SearchIcon color="disabled" />
                )}
              </InputAdornment>
            ),
          },
        }}
      />
    </Box>
  );
}
