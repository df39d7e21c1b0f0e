import { LabIcon } from '@jupyterlab/ui-components';
import dchubSvg from '../style/icons/dchub.svg';

/** The sidebar tab icon: a small server rack. */
export const dchubIcon = new LabIcon({ name: '@dchub/jupyterlab:dchub', svgstr: dchubSvg });
