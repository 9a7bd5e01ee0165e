import MoreVertIcon from '@mui/icons-material/MoreVert';
import { Box, IconButton, Menu, MenuItem } from '@mui/material';
import { useRef, useState } from 'react';
import { usePainted } from '../layout/firstPaint';
import { useScreenLang } from './ScreenLanguage';

interface Action {
  label: string;
  onClick: () => void;
  danger?: boolean;
}

/** A row's action menu. Its clicks stay off the row, whose own click opens the edit dialog. */
export function RowActions({ label, actions, disabled }: { label: string; actions: Action[]; disabled?: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The menu exists from its first opening on (it closes with a transition): a page of rows draws none until then.
  const [opened, setOpened] = useState(false);
  // The chosen action runs once the menu has closed and given the focus back, so that a dialog it opens keeps it.
  const chosen = useRef<(() => void) | null>(null);
  const lang = useScreenLang();
  // The button comes a moment after its row (firstPaint.tsx), in a place of its size and alignment (a small
  // IconButton: 34 px, inline-flex, aligned to the middle), so the row's height does not change.
  if (!usePainted())
    return (
      <Box component="span">
        <Box component="span" sx={{ display: 'inline-flex', verticalAlign: 'middle', width: 34, height: 34 }} />
      </Box>
    );
  return (
    <Box component="span" onClick={(event) => event.stopPropagation()}>
      <IconButton
        aria-label={label}
        aria-haspopup="menu"
        disabled={disabled}
        onClick={(event) => {
          setOpened(true);
          setAnchor(event.currentTarget);
        }}
        size="small"
      >
        <MoreVertIcon />
      </IconButton>
      {opened && (
        <Menu
          lang={lang}
          anchorEl={anchor}
          open={!!anchor}
          onClose={() => setAnchor(null)}
          slotProps={{
            transition: {
              onExited: () => {
                chosen.current?.();
                chosen.current = null;
              },
            },
          }}
        >
          {actions.map((action) => (
            <MenuItem
              key={action.label}
              onClick={() => {
                chosen.current = action.onClick;
                setAnchor(null);
              }}
              // A dangerous action's words in red, in the shade readable on the menu (#E53E3E itself is 4.13:1 on white).
              sx={action.danger ? { color: 'textShade.error' } : undefined}
            >
              {action.label}
            </MenuItem>
          ))}
        </Menu>
      )}
    </Box>
  );
}
