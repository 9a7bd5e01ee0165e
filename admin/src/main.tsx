import { preloadSession } from './preload';

// Before the app's code runs (react-admin and MUI take a while to evaluate), a signed-in start sets off what the
// opened screen needs: its list's rows, the data layer and the list's code.
preloadSession(window.location);
void import('./start');
